/**
 * For backend implementers: the Prolog harness, the transport a backend provides to reach it, and
 * the one {@link io.prologtool.PrologSession} implementation that speaks the harness protocol over
 * any transport. Application code does not need this package.
 */
package io.prologtool.spi;
