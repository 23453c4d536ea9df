package io.prologtool;

import java.util.Objects;
import java.util.Optional;

/**
 * The result of a {@link RuleBaseStore} operation: a value, or the {@link RuleBaseError} that says
 * why there is none. Immutable.
 *
 * <pre>{@code
 * RuleBaseResult<String> r = store.get("family");
 * if (r.isOk()) {
 *     session.consult(r.value());
 * } else {
 *     System.out.println(r.error().get());   // RULEBASE_001: Rule base 'famly' not found. Did you mean 'family'? ...
 * }
 * }</pre>
 *
 * @param <T> the value's type
 */
public final class RuleBaseResult<T> {

    private final T value;
    private final RuleBaseError error;

    private RuleBaseResult(T value, RuleBaseError error) {
        this.value = value;
        this.error = error;
    }

    /** A successful result. */
    public static <T> RuleBaseResult<T> ok(T value) {
        return new RuleBaseResult<>(Objects.requireNonNull(value, "value"), null);
    }

    /** A failed result. */
    public static <T> RuleBaseResult<T> failure(RuleBaseError error) {
        return new RuleBaseResult<>(null, Objects.requireNonNull(error, "error"));
    }

    /** True when the operation happened. */
    public boolean isOk() {
        return error == null;
    }

    /**
     * The value.
     *
     * @throws IllegalStateException when the result is a failure; its message is the error's
     */
    public T value() {
        if (error != null) {
            throw new IllegalStateException(error.toString());
        }
        return value;
    }

    /** The error, present exactly when the operation failed. */
    public Optional<RuleBaseError> error() {
        return Optional.ofNullable(error);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RuleBaseResult<?> r && Objects.equals(value, r.value) && Objects.equals(error, r.error);
    }

    @Override
    public int hashCode() {
        return Objects.hash(value, error);
    }

    @Override
    public String toString() {
        return error == null ? "ok(" + value + ")" : "failure(" + error + ")";
    }
}
