package io.prologtool.examples.formalizer;

/**
 * The model's endpoint could not be reached (connection refused, unknown host, no route, connect
 * timeout): no attempt can succeed, so {@link FormalizerAgent} stops instead of spending its attempts.
 */
public class ModelUnreachableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String endpoint;

    public ModelUnreachableException(String endpoint, Throwable cause) {
        super("cannot reach the model at " + endpoint + " (" + rootMessage(cause) + "): start the server, "
                + "or check the base URL and the network", cause);
        this.endpoint = endpoint;
    }

    /** The URL (or a description of the endpoint) that could not be reached. */
    public String endpoint() {
        return endpoint;
    }

    /** True when {@code e} or one of its causes says that a connection could not be made. */
    public static boolean isUnreachable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.net.ConnectException || t instanceof java.net.UnknownHostException
                    || t instanceof java.net.NoRouteToHostException
                    || t instanceof java.net.http.HttpConnectTimeoutException) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }
}
