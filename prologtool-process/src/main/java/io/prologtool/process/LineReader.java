package io.prologtool.process;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads UTF-8 lines from a stream and refuses one longer than a cap, so that a child that writes
 * without newlines cannot make the JVM buffer it without bound. Not thread-safe.
 */
final class LineReader {

    /** A line grew past the cap; the stream is left mid-line. */
    static final class TooLongException extends IOException {
        private static final long serialVersionUID = 1L;

        TooLongException(long max) {
            super("a line longer than " + max + " bytes");
        }
    }

    private final InputStream in;
    private final long max;
    private final byte[] chunk = new byte[64 * 1024];
    private int pos;
    private int end;
    private byte[] line = new byte[8 * 1024];
    private int len;

    LineReader(InputStream in, long max) {
        this.in = in;
        this.max = max;
    }

    /** The next line without its newline (and a trailing CR), or null at end of stream. */
    String next() throws IOException {
        len = 0;
        while (true) {
            if (pos == end) {
                int n = in.read(chunk);
                if (n < 0) {
                    return len == 0 ? null : text();
                }
                pos = 0;
                end = n;
            }
            int nl = -1;
            for (int i = pos; i < end; i++) {
                if (chunk[i] == '\n') {
                    nl = i;
                    break;
                }
            }
            int stop = nl < 0 ? end : nl;
            append(pos, stop - pos);
            pos = nl < 0 ? end : nl + 1;
            if (nl >= 0) {
                return text();
            }
        }
    }

    private void append(int from, int n) throws TooLongException {
        if ((long) len + n > max) {
            len = 0;
            line = new byte[8 * 1024]; // give the memory back at once
            throw new TooLongException(max);
        }
        if (len + n > line.length) {
            line = Arrays.copyOf(line, (int) Math.min(Math.max((long) line.length * 2, (long) len + n), Integer.MAX_VALUE - 8));
        }
        System.arraycopy(chunk, from, line, len, n);
        len += n;
    }

    private String text() {
        int n = len > 0 && line[len - 1] == '\r' ? len - 1 : len;
        String s = new String(line, 0, n, StandardCharsets.UTF_8);
        if (line.length > 1 << 20) {
            line = new byte[8 * 1024]; // a big reply's buffer is not kept for the child's life
        }
        return s;
    }
}
