package io.prologtool.tools;

/** A tool call that cannot be served; becomes an {@code ok: false} reply, never escapes {@link PrologTools}. */
final class ToolFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    final String kind;

    ToolFailure(String kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }
}
