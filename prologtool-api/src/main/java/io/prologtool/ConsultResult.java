package io.prologtool;

import java.util.List;
import java.util.Objects;

/**
 * What loading a text into a session reported. Loading is non-fatal: every clause that compiled is
 * loaded, whatever {@link #messages()} says about the others.
 *
 * @param messages        diagnostics in the order Prolog raised them, lines relative to the text
 * @param output          what directives in the text printed (capped by {@link SessionOptions#maxOutputChars()})
 * @param outputTruncated true when the output was cut at the cap
 * @param cost            what loading cost (wall time, CPU time, inferences)
 */
public record ConsultResult(List<Diagnostic> messages, String output, boolean outputTruncated, Cost cost) {

    public ConsultResult {
        messages = List.copyOf(messages);
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(cost, "cost");
    }

    /** A result that cost nothing measured ({@link Cost#NONE}). */
    public ConsultResult(List<Diagnostic> messages, String output, boolean outputTruncated) {
        this(messages, output, outputTruncated, Cost.NONE);
    }

    /** This result with {@code cost} in place of its own. */
    public ConsultResult withCost(Cost cost) {
        return new ConsultResult(messages, output, outputTruncated, cost);
    }

    /** {@link Cost#wallTime()}: how long the call took, as the caller saw it. */
    public java.time.Duration wallTime() {
        return cost.wallTime();
    }

    /** {@link Cost#cpuTime()}: the CPU time of the Prolog thread that served the call. */
    public java.time.Duration cpuTime() {
        return cost.cpuTime();
    }

    /** {@link Cost#inferences()}: the inferences counted while the call was served. */
    public long inferences() {
        return cost.inferences();
    }

    /** True when any diagnostic is an error (a clause or directive did not load or run). */
    public boolean hasErrors() {
        return messages.stream().anyMatch(d -> d.severity() == Severity.ERROR);
    }

    /** The diagnostics at {@code minimum} severity or above. */
    public List<Diagnostic> messages(Severity minimum) {
        return messages.stream().filter(d -> d.severity().atLeast(minimum)).toList();
    }

    /** This result with every diagnostic naming {@code file} ({@link Diagnostic#file()}). */
    public ConsultResult inFile(String file) {
        return new ConsultResult(messages.stream().map(d -> d.inFile(file)).toList(), output, outputTruncated, cost);
    }

    /** The error diagnostics only. */
    public List<Diagnostic> errors() {
        return messages(Severity.ERROR);
    }
}
