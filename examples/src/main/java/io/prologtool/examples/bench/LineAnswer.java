package io.prologtool.examples.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The floor of the MCP server's start-up: a JVM that starts, reads one line from its standard input and
 * answers it with one line, which is what a server must at least do before its {@code initialize} is answered.
 */
public final class LineAnswer {

    private LineAnswer() {
    }

    /** Reads a line, writes {@code {"answered": <length>}}. */
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line = in.readLine();
        System.out.println("{\"answered\": " + (line == null ? -1 : line.length()) + "}");
        System.out.flush();
    }
}
