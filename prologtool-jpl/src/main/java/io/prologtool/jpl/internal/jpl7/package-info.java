/**
 * Internal to the JPL backend: the only code that touches {@code org.jpl7}. The backend loads it through a
 * class loader that sees SWI-Prolog's own {@code jpl.jar}. Not part of prologtool's API.
 */
package io.prologtool.jpl.internal.jpl7;
