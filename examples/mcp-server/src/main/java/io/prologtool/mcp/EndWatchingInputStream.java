package io.prologtool.mcp;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads through to a stream and runs an action once, when the stream ends, fails or is closed: how the
 * stdio server learns that its client has gone (the SDK's transport keeps that to itself).
 */
final class EndWatchingInputStream extends FilterInputStream {

    private final Runnable onEnd;
    private final AtomicBoolean ended = new AtomicBoolean();

    EndWatchingInputStream(InputStream in, Runnable onEnd) {
        super(in);
        this.onEnd = onEnd;
    }

    @Override
    public int read() throws IOException {
        return watch(super::read);
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        return watch(() -> super.read(b, off, len));
    }

    @Override
    public void close() throws IOException {
        try {
            super.close();
        } finally {
            end();
        }
    }

    private interface Read {
        int run() throws IOException;
    }

    private int watch(Read read) throws IOException {
        int n;
        try {
            n = read.run();
        } catch (IOException | RuntimeException e) {
            end();
            throw e;
        }
        if (n < 0) {
            end();
        }
        return n;
    }

    private void end() {
        if (ended.compareAndSet(false, true)) {
            onEnd.run();
        }
    }
}
