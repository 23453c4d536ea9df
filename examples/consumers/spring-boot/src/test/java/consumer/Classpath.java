package consumer;

import static org.junit.jupiter.api.Assertions.assertThrows;

/** What a consumer's classpath must not hold. */
final class Classpath {

    private Classpath() {
    }

    static void lacks(String... classNames) {
        for (String name : classNames) {
            assertThrows(ClassNotFoundException.class, () -> Class.forName(name, false, Classpath.class.getClassLoader()),
                    name + " must not be on a consumer's classpath");
        }
    }
}
