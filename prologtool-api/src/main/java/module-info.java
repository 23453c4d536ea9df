/**
 * The prologtool API: sessions, terms, the JSON tool layer and the Prolog harness that every backend
 * runs. Jackson's {@code JsonNode} appears in the API (the tool layer), so this module requires
 * Jackson's databind transitively: a modular application that requires {@code io.prologtool.api}
 * reads it without naming it.
 */
module io.prologtool.api {
    requires transitive com.fasterxml.jackson.databind;
    requires transitive java.sql;

    exports io.prologtool;
    exports io.prologtool.json;
    exports io.prologtool.spi;
    exports io.prologtool.store;
    exports io.prologtool.tools;

    // The harness sources (io/prologtool/*.pl) and the bundled rule bases (prologtool/rules/*.pl), read
    // as class-path resources by the backends.
    opens io.prologtool;
    opens prologtool.rules;
}
