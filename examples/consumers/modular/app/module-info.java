/** A modular application: both backends and the tool layer on the module path, no --add-modules. */
module app {
    requires io.prologtool.process;
    requires io.prologtool.jpl;
    // The API uses Jackson's JsonNode; the prologtool jars are automatic modules, which cannot require it
    // transitively, so the application names it.
    requires com.fasterxml.jackson.databind;
}
