/**
 * Internal to the JPL backend: the boundary to JPL's Java API, whose classes come from the SWI-Prolog
 * installation at run time. Not part of prologtool's API.
 */
package io.prologtool.jpl.internal;
