package io.prologtool;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads Prolog source files strictly: text that is not valid in its encoding is an error naming the
 * file and the encoding, never replaced by U+FFFD.
 */
public final class SourceFiles {

    private SourceFiles() {
    }

    /** {@link #read(Path, Charset)} in UTF-8. */
    public static String read(Path file) {
        return read(file, StandardCharsets.UTF_8);
    }

    /**
     * The text of {@code file} in {@code encoding}.
     *
     * @throws PrologToolException when the file cannot be read, or holds bytes that are not valid in
     *                             {@code encoding} (the message names the file, the encoding and the
     *                             byte offset)
     */
    public static String read(Path file, Charset encoding) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new PrologToolException("cannot read Prolog file " + file + ": " + e, e);
        }
        return decode(bytes, encoding, file.toString());
    }

    /**
     * {@code bytes}, decoded strictly in {@code encoding}.
     *
     * @param name what the bytes are, for the error (a file name or resource name)
     * @throws PrologToolException when the bytes are not valid in {@code encoding}
     */
    public static String decode(byte[] bytes, Charset encoding, String name) {
        CharsetDecoder decoder = encoding.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        try {
            return decoder.decode(in).toString();
        } catch (CharacterCodingException e) {
            throw new PrologToolException(name + " is not valid " + encoding.name() + " (at byte " + in.position()
                    + "): save it in " + encoding.name() + ", or read it with the encoding it is in", e);
        }
    }
}
