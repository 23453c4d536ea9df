/** A modular application: both backends and the tool layer on the module path, no --add-modules. */
module app {
    requires io.prologtool.api;       // a named module; it requires Jackson's databind transitively
    requires io.prologtool.process;   // automatic modules
    requires io.prologtool.jpl;
}
