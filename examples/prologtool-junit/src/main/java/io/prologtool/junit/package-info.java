/**
 * Testing Prolog code from JUnit 5: {@link io.prologtool.junit.PlunitTests} turns a file's plunit
 * tests into dynamic tests, and {@link io.prologtool.junit.PrologAssertions} gives AssertJ
 * assertions on goal results, consult results, terms and plunit reports.
 */
package io.prologtool.junit;
