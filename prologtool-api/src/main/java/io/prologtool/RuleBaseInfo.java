package io.prologtool;

import java.util.List;
import java.util.Objects;

/**
 * What {@link RuleBaseStore#list()} says about one rule base. Description and tags come from the
 * leading comment lines of its text:
 *
 * <pre>
 * % description: Family relations: parent, grandparent, ancestor, sibling.
 * % tags: family, genealogy
 * </pre>
 *
 * @param name        the rule base's name
 * @param description the {@code % description:} line's text, or empty
 * @param tags        the {@code % tags:} line's comma-separated values, or empty
 * @param bundled     true when it comes from the classpath ({@code prologtool/rules/<name>.pl}) and no
 *                    saved rule base of the same name overrides it
 */
public record RuleBaseInfo(String name, String description, List<String> tags, boolean bundled) {

    public RuleBaseInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        tags = List.copyOf(tags);
    }
}
