package io.prologtool.store;

import io.prologtool.SessionStore;

import java.nio.file.Path;

/**
 * A session store named by one string, for child JVMs of the tests: {@code folder:<path>}, {@code
 * jdbc:postgresql://...} (as {@link PostgresServer#url} writes it).
 */
public final class StoreSpecs {

    private StoreSpecs() {
    }

    public static SessionStore open(String spec) {
        if (spec.startsWith("folder:")) {
            return SessionStore.folder(Path.of(spec.substring("folder:".length())));
        }
        if (spec.startsWith("jdbc:")) {
            return SessionStore.jdbc(spec);
        }
        throw new IllegalArgumentException("no store spec: " + spec);
    }
}
