package io.prologtool.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.prologtool.Term;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The JSON wire format for {@link Term}s, shared with the Prolog side, which must produce and accept
 * exactly this format.
 *
 * <table>
 *   <caption>One JSON object per term; {@code type} comes first</caption>
 *   <tr><th>Term</th><th>JSON</th></tr>
 *   <tr><td>atom</td><td>{@code {"type":"atom","value":"bob"}}</td></tr>
 *   <tr><td>integer</td><td>{@code {"type":"integer","value":123}}: a JSON number of any size;
 *       decoding also accepts a string of decimal digits such as {@code "-123"}</td></tr>
 *   <tr><td>float</td><td>{@code {"type":"float","value":1.5}}; {@code "inf"}, {@code "-inf"} and
 *       {@code "nan"} as strings; decoding also accepts integral numbers such as {@code 2}</td></tr>
 *   <tr><td>string</td><td>{@code {"type":"string","value":"text"}}</td></tr>
 *   <tr><td>list</td><td>{@code {"type":"list","elements":[...]}}, with {@code "tail":term} after the
 *       elements when the list does not end in {@code []}; {@code []} itself has no elements</td></tr>
 *   <tr><td>compound</td><td>{@code {"type":"compound","functor":"f","args":[...]}}</td></tr>
 *   <tr><td>variable</td><td>{@code {"type":"variable","name":"_G1"}}</td></tr>
 * </table>
 *
 * <p>Every chain of {@code '[|]'/2} cells is encoded as one list object, never as compounds.
 * Decoding accepts keys in any order and ignores keys it does not know, and a list whose tail is a
 * list object decodes to the longer list. {@link #fromJson(String)} streams lists and compounds
 * whose {@code "type"} is the first key, so writers should put it first, as this class does; other
 * objects are still decoded, but held as a JSON tree while they are. Encoding and decoding use
 * explicit stacks, so list length and nesting depth are limited by memory and the parser limits of
 * {@link #mapper()}, not by the Java thread stack.
 */
public final class TermJson {

    /**
     * The deepest JSON nesting accepted or written. A term nesting level takes two JSON levels (an
     * object and its {@code args} array), so this allows terms some 50,000 levels deep.
     */
    private static final int MAX_NESTING_DEPTH = 100_000;

    /** Longest JSON string or number, in characters: Prolog text and integers can be huge. */
    private static final int MAX_TEXT_LENGTH = 256 * 1024 * 1024;

    private static final ObjectMapper MAPPER = createMapper();

    /** Reads values inside a larger document, where the rest of the document is not "trailing". */
    private static final ObjectReader SUBTREE_READER =
            MAPPER.reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    // Shared because value nodes are immutable and a big list would otherwise repeat them by the
    // million.
    private static final TextNode ATOM = TextNode.valueOf("atom");
    private static final TextNode INTEGER = TextNode.valueOf("integer");
    private static final TextNode FLOAT = TextNode.valueOf("float");
    private static final TextNode STRING = TextNode.valueOf("string");
    private static final TextNode LIST = TextNode.valueOf("list");
    private static final TextNode COMPOUND = TextNode.valueOf("compound");
    private static final TextNode VARIABLE = TextNode.valueOf("variable");

    private static final String INF = "inf";
    private static final String NEG_INF = "-inf";
    private static final String NAN = "nan";

    private TermJson() {}

    /**
     * Returns the mapper configured for this wire format, to be shared by every class that reads or
     * writes JSON exchanged with Prolog. It reads integers too big for a {@code long} as {@link
     * BigInteger} and floats as {@code double} (never {@code BigDecimal}), accepts nesting up to
     * 100,000 levels and strings and numbers up to 256 MiB characters, and rejects trailing content
     * after the root value.
     *
     * <p>Reading trees with it is iterative in Jackson, but writing a tree is recursive, so a deeply
     * nested tree can overflow the stack when written: write terms with {@link #write} instead.
     *
     * <p>The instance is shared: do not reconfigure it; use {@link ObjectMapper#copy()} to derive a
     * differently configured one.
     *
     * @return the shared mapper
     */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /**
     * Encodes a term as a JSON tree, with keys in wire-format order.
     *
     * @param term the term
     * @return a new object node owned by the caller
     */
    public static ObjectNode encode(Term term) {
        Objects.requireNonNull(term, "term");
        Deque<PendingNode> work = new ArrayDeque<>();
        ObjectNode root = newNode(term, work);
        while (!work.isEmpty()) {
            PendingNode pending = work.pop();
            ObjectNode node = newNode(pending.term(), work);
            if (pending.array() != null) {
                pending.array().add(node);
            } else {
                pending.owner().set("tail", node);
            }
        }
        return root;
    }

    /**
     * Decodes a JSON tree in the wire format.
     *
     * @param json the JSON tree of one term
     * @return the term
     * @throws IllegalArgumentException if the tree is not a well-formed term; the message names the
     *     offending place as a path such as {@code $.args[1].elements[0]}
     */
    public static Term decode(JsonNode json) {
        Objects.requireNonNull(json, "json");
        return decodeTree(json, null, 0);
    }

    /**
     * Encodes a term as compact JSON text, streaming it without building a tree.
     *
     * @param term the term
     * @return the JSON text
     * @throws IllegalArgumentException if the term nests deeper than {@link #mapper()} allows
     */
    public static String toJson(Term term) {
        Objects.requireNonNull(term, "term");
        StringWriter out = new StringWriter();
        try (JsonGenerator generator = MAPPER.getFactory().createGenerator(out)) {
            writeTerm(term, generator);
        } catch (StreamConstraintsException e) {
            throw new IllegalArgumentException("Term nests too deeply to encode as JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            // A StringWriter does not fail, so this can only be a broken generator.
            throw new UncheckedIOException(e);
        }
        return escapeLoneSurrogates(out.toString());
    }

    /**
     * Writes a term as one JSON value into a document being generated, such as the value of a field
     * in a larger message. Prefer this to putting {@link #encode}'s tree into a message: Jackson
     * serializes trees recursively, so a deeply nested term can overflow the stack there, but not
     * here.
     *
     * @param term the term
     * @param out the generator, positioned where a value may be written
     * @throws IOException if the generator fails, including when its nesting limit is exceeded
     */
    public static void write(Term term, JsonGenerator out) throws IOException {
        writeTerm(Objects.requireNonNull(term, "term"), Objects.requireNonNull(out, "out"));
    }

    /**
     * Reads one term from a document being parsed, such as the value of a field in a larger message.
     * Lists and compounds are decoded as they stream past, without building their JSON tree.
     *
     * @param parser the parser, on the term's first token or just before it
     * @return the term; the parser is left on the term's last token
     * @throws IllegalArgumentException if the value is not a well-formed term; the path in the message
     *     starts at this value
     * @throws IOException if the JSON itself is malformed or the input fails
     */
    public static Term read(JsonParser parser) throws IOException {
        Objects.requireNonNull(parser, "parser");
        if (parser.currentToken() == null && parser.nextToken() == null) {
            throw new IllegalArgumentException("Malformed term JSON: the input holds no JSON value");
        }
        return readStreamed(parser);
    }

    /**
     * Decodes JSON text in the wire format.
     *
     * @param json the JSON text of exactly one term
     * @return the term
     * @throws IllegalArgumentException if the text is not JSON, holds more than one value, or is not
     *     a well-formed term
     */
    public static Term fromJson(String json) {
        Objects.requireNonNull(json, "json");
        // Streamed rather than read as a tree: the tree of a long list is many times its text.
        try (JsonParser parser = MAPPER.createParser(json)) {
            if (parser.nextToken() == null) {
                throw new IllegalArgumentException("Malformed term JSON: the input holds no JSON value");
            }
            Term term = readStreamed(parser);
            if (parser.nextToken() != null) {
                throw new IllegalArgumentException(
                        "Malformed term JSON: unexpected content after the term" + where(parser.currentLocation()));
            }
            return term;
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "Malformed term JSON: not valid JSON: " + e.getOriginalMessage() + where(e.getLocation()), e);
        } catch (IOException e) {
            // Reading a String does not fail, so this can only be a broken parser.
            throw new UncheckedIOException(e);
        }
    }

    /**
     * JSON text with every lone surrogate (a char of U+D800..U+DFFF that is not half of a pair, which
     * a Prolog atom or string may hold) written as a JSON escape such as <code>&#92;uD800</code>. Jackson writes
     * such a char as it is, and no UTF-8 can carry it: the JVM's encoder makes it {@code ?}, so text
     * sent over a pipe or a socket would lose it. The escape decodes back to the same char, by Jackson
     * and by the harness's JSON reader alike. Pairs are left as they are (UTF-8 carries the character
     * they stand for); so is text with no surrogate, which is returned as it is, not copied.
     *
     * @param json JSON text
     * @return the same JSON text, safe to encode in UTF-8
     */
    public static String escapeLoneSurrogates(String json) {
        int n = json.length();
        int i = 0;
        while (i < n && !isLone(json, i)) {
            i++;
        }
        if (i == n) {
            return json;
        }
        StringBuilder out = new StringBuilder(n + 16).append(json, 0, i);
        for (; i < n; i++) {
            char c = json.charAt(i);
            if (isLone(json, i)) {
                out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean isLone(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(s.charAt(i - 1));
        }
        return false;
    }

    // ---------------------------------------------------------------------------------------------
    // Encoding
    // ---------------------------------------------------------------------------------------------

    /** A term whose node still has to be made and then added to an array, or set as a tail. */
    private record PendingNode(Term term, ArrayNode array, ObjectNode owner) {}

    /**
     * Makes the node for one term. Children are not made here but queued, last first, so that they
     * are made, and added to their arrays, in order.
     */
    private static ObjectNode newNode(Term term, Deque<PendingNode> work) {
        JsonNodeFactory nodes = MAPPER.getNodeFactory();
        ObjectNode node = nodes.objectNode();
        if (term instanceof Term.Atom atom) {
            node.set("type", ATOM);
            node.put("value", atom.name());
        } else if (term instanceof Term.Int integer) {
            node.set("type", INTEGER);
            BigInteger value = integer.value();
            node.set("value", value.bitLength() < Long.SIZE
                    ? nodes.numberNode(value.longValue())
                    : nodes.numberNode(value));
        } else if (term instanceof Term.Float real) {
            node.set("type", FLOAT);
            double value = real.value();
            node.set("value", Double.isFinite(value)
                    ? nodes.numberNode(value)
                    : TextNode.valueOf(specialFloatName(value)));
        } else if (term instanceof Term.Str string) {
            node.set("type", STRING);
            node.put("value", string.value());
        } else if (term instanceof Term.Nil) {
            node.set("type", LIST);
            node.putArray("elements");
        } else if (term instanceof Term.Var variable) {
            node.set("type", VARIABLE);
            node.put("name", variable.name());
        } else {
            Term.Compound compound = (Term.Compound) term;
            if (compound.isListCell()) {
                List<Term> elements = new ArrayList<>();
                Term tail = spine(compound, elements);
                node.set("type", LIST);
                ArrayNode array = node.putArray("elements");
                if (!(tail instanceof Term.Nil)) {
                    // Queued below the elements, so set after them: "tail" follows "elements".
                    work.push(new PendingNode(tail, null, node));
                }
                pushAll(work, elements, array);
            } else {
                node.set("type", COMPOUND);
                node.put("functor", compound.functor());
                pushAll(work, compound.args(), node.putArray("args"));
            }
        }
        return node;
    }

    private static void pushAll(Deque<PendingNode> work, List<Term> terms, ArrayNode array) {
        for (int i = terms.size() - 1; i >= 0; i--) {
            work.push(new PendingNode(terms.get(i), array, null));
        }
    }

    /** Adds the heads of a chain of list cells to {@code elements} and returns what ends it. */
    private static Term spine(Term.Compound cell, List<Term> elements) {
        Term rest = cell;
        while (rest instanceof Term.Compound c && c.isListCell()) {
            elements.add(c.args().get(0));
            rest = c.args().get(1);
        }
        return rest;
    }

    private static String specialFloatName(double value) {
        if (Double.isNaN(value)) {
            return NAN;
        }
        return value > 0 ? INF : NEG_INF;
    }

    // Markers on the streaming writer's work stack, between the terms still to write.
    private static final Object END_ARRAY_AND_OBJECT = new Object();
    private static final Object END_OBJECT = new Object();

    /** Marks the end of a partial list's elements: the tail is written next. */
    private record TailMarker(Term tail) {}

    /** Streams a term; the same shapes as {@link #newNode}, checked against it by the tests. */
    private static void writeTerm(Term root, JsonGenerator out) throws IOException {
        Deque<Object> work = new ArrayDeque<>();
        work.push(root);
        while (!work.isEmpty()) {
            Object item = work.pop();
            if (item == END_ARRAY_AND_OBJECT) {
                out.writeEndArray();
                out.writeEndObject();
            } else if (item == END_OBJECT) {
                out.writeEndObject();
            } else if (item instanceof TailMarker marker) {
                out.writeEndArray();
                out.writeFieldName("tail");
                work.push(END_OBJECT);
                work.push(marker.tail());
            } else if (item instanceof Term.Atom atom) {
                out.writeStartObject();
                out.writeStringField("type", "atom");
                out.writeStringField("value", atom.name());
                out.writeEndObject();
            } else if (item instanceof Term.Int integer) {
                out.writeStartObject();
                out.writeStringField("type", "integer");
                out.writeFieldName("value");
                out.writeNumber(integer.value());
                out.writeEndObject();
            } else if (item instanceof Term.Float real) {
                out.writeStartObject();
                out.writeStringField("type", "float");
                out.writeFieldName("value");
                double value = real.value();
                if (Double.isFinite(value)) {
                    out.writeNumber(value);
                } else {
                    out.writeString(specialFloatName(value));
                }
                out.writeEndObject();
            } else if (item instanceof Term.Str string) {
                out.writeStartObject();
                out.writeStringField("type", "string");
                out.writeStringField("value", string.value());
                out.writeEndObject();
            } else if (item instanceof Term.Nil) {
                out.writeStartObject();
                out.writeStringField("type", "list");
                out.writeArrayFieldStart("elements");
                out.writeEndArray();
                out.writeEndObject();
            } else if (item instanceof Term.Var variable) {
                out.writeStartObject();
                out.writeStringField("type", "variable");
                out.writeStringField("name", variable.name());
                out.writeEndObject();
            } else {
                Term.Compound compound = (Term.Compound) item;
                out.writeStartObject();
                List<Term> children;
                if (compound.isListCell()) {
                    children = new ArrayList<>();
                    Term tail = spine(compound, children);
                    out.writeStringField("type", "list");
                    out.writeArrayFieldStart("elements");
                    work.push(tail instanceof Term.Nil ? END_ARRAY_AND_OBJECT : new TailMarker(tail));
                } else {
                    children = compound.args();
                    out.writeStringField("type", "compound");
                    out.writeStringField("functor", compound.functor());
                    out.writeArrayFieldStart("args");
                    work.push(END_ARRAY_AND_OBJECT);
                }
                for (int i = children.size() - 1; i >= 0; i--) {
                    work.push(children.get(i));
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Decoding
    // ---------------------------------------------------------------------------------------------

    /** The child index that stands for a list's tail. */
    private static final int TAIL = -1;

    /** What {@link StreamFrame#advance} returns at the end of its object. */
    private static final int FINISHED = -2;

    /**
     * A list or compound whose children are being decoded. Frames link to their parents, so the path
     * for an error message is built only when one is needed.
     */
    private abstract static class Frame {
        final Frame parent;
        final int indexInParent;
        final String arrayKey;

        Frame(Frame parent, int indexInParent, String arrayKey) {
            this.parent = parent;
            this.indexInParent = indexInParent;
            this.arrayKey = arrayKey;
        }

        String childLabel(int index) {
            return index == TAIL ? ".tail" : "." + arrayKey + "[" + index + "]";
        }
    }

    /** A frame over a JSON tree, whose keys can be looked up in any order. */
    private static final class TreeFrame extends Frame {
        final String functor;
        final JsonNode children;
        final JsonNode tailNode;
        final Term[] results;
        Term tail;
        int next;

        TreeFrame(Frame parent, int indexInParent, String functor, JsonNode children, JsonNode tailNode) {
            super(parent, indexInParent, functor == null ? "elements" : "args");
            this.functor = functor;
            this.children = children;
            this.tailNode = tailNode;
            this.results = new Term[children.size()];
        }

        boolean hasMoreChildren() {
            return next < results.length + (tailNode == null ? 0 : 1);
        }

        /** The array's elements come first, the tail last. */
        int nextIndex() {
            return next < results.length ? next : TAIL;
        }

        JsonNode nextNode() {
            return next < results.length ? children.get(next) : tailNode;
        }

        void accept(Term term) {
            if (next < results.length) {
                results[next] = term;
            } else {
                tail = term;
            }
            next++;
        }

        Term build() {
            List<Term> terms = Arrays.asList(results);
            return functor == null
                    ? Term.list(terms, tail == null ? Term.NIL : tail)
                    : new Term.Compound(functor, terms);
        }
    }

    /**
     * A frame over a token stream, opened only when {@code "type"} is the object's first key (as
     * every encoder of this format writes it), so that its children can be decoded as they arrive
     * without ever holding the JSON tree of a long list.
     */
    private static final class StreamFrame extends Frame {
        final boolean isList;
        final List<Term> children = new ArrayList<>();
        JsonNode functorNode;
        JsonNode nonArray;
        boolean arraySeen;
        boolean inArray;
        Term tail;
        int pendingIndex;

        StreamFrame(StreamFrame parent, int indexInParent, boolean isList) {
            super(parent, indexInParent, isList ? "elements" : "args");
            this.isList = isList;
        }

        /**
         * Reads up to the next child term, returning its index with the parser on its first token,
         * or {@link #FINISHED} on the object's closing brace.
         */
        int advance(JsonParser p) throws IOException {
            while (true) {
                JsonToken token = p.nextToken();
                if (inArray) {
                    if (token == JsonToken.END_ARRAY) {
                        inArray = false;
                        continue;
                    }
                    pendingIndex = children.size();
                    return pendingIndex;
                }
                if (token == JsonToken.END_OBJECT) {
                    return FINISHED;
                }
                String key = p.currentName();
                JsonToken value = p.nextToken();
                if (key.equals(arrayKey)) {
                    // A repeated key replaces the earlier one, as in a JSON tree.
                    children.clear();
                    arraySeen = value == JsonToken.START_ARRAY;
                    inArray = arraySeen;
                    nonArray = arraySeen ? null : readSubtree(p);
                } else if (!isList && key.equals("functor")) {
                    functorNode = readSubtree(p);
                } else if (isList && key.equals("tail")) {
                    pendingIndex = TAIL;
                    return TAIL;
                } else {
                    p.skipChildren();
                }
            }
        }

        void accept(Term term) {
            if (pendingIndex == TAIL) {
                tail = term;
            } else {
                children.add(term);
            }
        }

        Term build() {
            String type = isList ? "list" : "compound";
            String functor = isList ? null : requireText(functorNode, "functor", type, parent, indexInParent);
            if (!arraySeen) {
                requireArray(nonArray, arrayKey, type, parent, indexInParent);
            }
            return isList
                    ? Term.list(children, tail == null ? Term.NIL : tail)
                    : new Term.Compound(functor, children);
        }
    }

    /** Decodes a tree; {@code outer} and {@code outerIndex} place it inside a streamed document. */
    private static Term decodeTree(JsonNode json, Frame outer, int outerIndex) {
        Object first = start(json, outer, outerIndex);
        if (first instanceof Term term) {
            return term;
        }
        TreeFrame frame = (TreeFrame) first;
        while (true) {
            if (frame.hasMoreChildren()) {
                Object child = start(frame.nextNode(), frame, frame.nextIndex());
                if (child instanceof Term term) {
                    frame.accept(term);
                } else {
                    frame = (TreeFrame) child;
                }
            } else {
                Term built = frame.build();
                if (!(frame.parent instanceof TreeFrame up)) {
                    return built;
                }
                frame = up;
                frame.accept(built);
            }
        }
    }

    /**
     * Starts decoding one tree node: returns the finished term for anything without children, or a
     * new frame whose children the caller must decode.
     */
    private static Object start(JsonNode node, Frame parent, int index) {
        if (!node.isObject()) {
            throw malformed(parent, index, "expected a JSON object for a term, got " + describe(node));
        }
        JsonNode typeNode = node.get("type");
        if (typeNode == null) {
            throw malformed(parent, index, "missing \"type\"");
        }
        if (!typeNode.isTextual()) {
            throw malformed(parent, index, "\"type\" must be a JSON string, got " + describe(typeNode));
        }
        String type = typeNode.textValue();
        switch (type) {
            case "atom":
                return new Term.Atom(requireText(node.get("value"), "value", type, parent, index));
            case "string":
                return new Term.Str(requireText(node.get("value"), "value", type, parent, index));
            case "variable":
                return new Term.Var(requireText(node.get("name"), "name", type, parent, index));
            case "integer":
                return new Term.Int(integerValue(node.get("value"), parent, index));
            case "float":
                return new Term.Float(floatValue(node.get("value"), parent, index));
            case "compound": {
                String functor = requireText(node.get("functor"), "functor", type, parent, index);
                JsonNode args = requireArray(node.get("args"), "args", type, parent, index);
                return args.isEmpty()
                        ? new Term.Compound(functor, List.of())
                        : new TreeFrame(parent, index, functor, args, null);
            }
            case "list": {
                JsonNode elements = requireArray(node.get("elements"), "elements", type, parent, index);
                JsonNode tail = node.get("tail");
                return elements.isEmpty() && tail == null
                        ? Term.NIL
                        : new TreeFrame(parent, index, null, elements, tail);
            }
            default:
                throw malformed(parent, index, "unknown term type \"" + type
                        + "\" (expected atom, integer, float, string, list, compound or variable)");
        }
    }

    /** Reads one term from a parser positioned on its first token, leaving it on its last. */
    private static Term readStreamed(JsonParser p) throws IOException {
        StreamFrame frame = null;
        int index = 0;
        while (true) {
            Object started = startStreamed(p, frame, index);
            Term finished = null;
            if (started instanceof StreamFrame opened) {
                frame = opened;
            } else {
                finished = (Term) started;
            }
            // Hand finished terms up until some frame has another child to start.
            while (true) {
                if (finished != null) {
                    if (frame == null) {
                        return finished;
                    }
                    frame.accept(finished);
                    finished = null;
                }
                int next = frame.advance(p);
                if (next != FINISHED) {
                    index = next;
                    break;
                }
                finished = frame.build();
                frame = (StreamFrame) frame.parent;
            }
        }
    }

    /**
     * Starts a term at the parser's current token. Lists and compounds that name their type first
     * become stream frames; anything else is read whole as a (small) tree and decoded as one, so
     * both paths share their rules and messages.
     */
    private static Object startStreamed(JsonParser p, StreamFrame parent, int index) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            return decodeTree(readSubtree(p), parent, index);
        }
        ObjectNode fields = MAPPER.getNodeFactory().objectNode();
        if (p.nextToken() == JsonToken.FIELD_NAME && p.currentName().equals("type")) {
            if (p.nextToken() == JsonToken.VALUE_STRING) {
                String type = p.getText();
                if (type.equals("compound") || type.equals("list")) {
                    return new StreamFrame(parent, index, type.equals("list"));
                }
            }
            fields.set("type", readSubtree(p));
            p.nextToken();
        }
        while (p.currentToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            p.nextToken();
            fields.set(key, readSubtree(p));
            p.nextToken();
        }
        return decodeTree(fields, parent, index);
    }

    /** Reads the value at the parser's current token as a tree, leaving the parser on its last token. */
    private static JsonNode readSubtree(JsonParser p) throws IOException {
        // Scalars are made directly, as Jackson's tree reader would make them, because going
        // through the reader for every field of every list element costs more than the rest.
        JsonNodeFactory nodes = MAPPER.getNodeFactory();
        switch (p.currentToken()) {
            case VALUE_STRING:
                return nodes.textNode(p.getText());
            case VALUE_NUMBER_INT:
                switch (p.getNumberType()) {
                    case INT:
                        return nodes.numberNode(p.getIntValue());
                    case LONG:
                        return nodes.numberNode(p.getLongValue());
                    default:
                        return nodes.numberNode(p.getBigIntegerValue());
                }
            case VALUE_NUMBER_FLOAT:
                return nodes.numberNode(p.getDoubleValue());
            case VALUE_TRUE:
                return nodes.booleanNode(true);
            case VALUE_FALSE:
                return nodes.booleanNode(false);
            case VALUE_NULL:
                return nodes.nullNode();
            default:
                return SUBTREE_READER.readTree(p);
        }
    }

    private static String requireText(JsonNode value, String key, String type, Frame parent, int index) {
        if (value == null) {
            throw malformed(parent, index, type + " is missing \"" + key + "\"");
        }
        if (!value.isTextual()) {
            throw malformed(parent, index, type + " \"" + key + "\" must be a JSON string, got " + describe(value));
        }
        return value.textValue();
    }

    private static JsonNode requireArray(JsonNode value, String key, String type, Frame parent, int index) {
        if (value == null) {
            throw malformed(parent, index, type + " is missing \"" + key + "\"");
        }
        if (!value.isArray()) {
            throw malformed(parent, index, type + " \"" + key + "\" must be a JSON array, got " + describe(value));
        }
        return value;
    }

    private static BigInteger integerValue(JsonNode value, Frame parent, int index) {
        if (value == null) {
            throw malformed(parent, index, "integer is missing \"value\"");
        }
        if (value.isIntegralNumber()) {
            return value.bigIntegerValue();
        }
        if (value.isTextual() && isDecimalInteger(value.textValue())) {
            return new BigInteger(value.textValue());
        }
        throw malformed(parent, index,
                "integer \"value\" must be a JSON integer or a string of decimal digits, got " + describe(value));
    }

    /** Accepts {@code -?[0-9]+} only: BigInteger alone would also take '+' and non-ASCII digits. */
    private static boolean isDecimalInteger(String text) {
        int start = text.startsWith("-") ? 1 : 0;
        if (text.length() == start) {
            return false;
        }
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static double floatValue(JsonNode value, Frame parent, int index) {
        if (value == null) {
            throw malformed(parent, index, "float is missing \"value\"");
        }
        if (value.isBigDecimal()) {
            // Through text, so the rounding is Double.parseDouble's, which is exact.
            return Double.parseDouble(value.decimalValue().toString());
        }
        if (value.isNumber()) {
            // Exact for doubles; integers convert with round-to-nearest.
            return value.doubleValue();
        }
        if (value.isTextual()) {
            switch (value.textValue()) {
                case INF:
                    return Double.POSITIVE_INFINITY;
                case NEG_INF:
                    return Double.NEGATIVE_INFINITY;
                case NAN:
                    return Double.NaN;
                default:
                    break;
            }
        }
        throw malformed(parent, index,
                "float \"value\" must be a JSON number or one of \"inf\", \"-inf\", \"nan\", got " + describe(value));
    }

    private static String describe(JsonNode node) {
        String kind = node.getNodeType().name().toLowerCase(Locale.ROOT);
        if (node.isContainerNode() || node.isNull() || node.isMissingNode()) {
            return kind;
        }
        String text = node.toString();
        return kind + " " + (text.length() > 40 ? text.substring(0, 40) + "..." : text);
    }

    private static IllegalArgumentException malformed(Frame parent, int index, String problem) {
        return new IllegalArgumentException("Malformed term JSON at " + path(parent, index) + ": " + problem);
    }

    private static String path(Frame parent, int index) {
        Deque<String> labels = new ArrayDeque<>();
        Frame frame = parent;
        int position = index;
        while (frame != null) {
            labels.push(frame.childLabel(position));
            position = frame.indexInParent;
            frame = frame.parent;
        }
        return "$" + String.join("", labels);
    }

    private static String where(JsonLocation at) {
        return at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    }

    // ---------------------------------------------------------------------------------------------
    // Mapper
    // ---------------------------------------------------------------------------------------------

    private static ObjectMapper createMapper() {
        StreamReadConstraints read = StreamReadConstraints.builder()
                .maxNestingDepth(MAX_NESTING_DEPTH)
                .maxStringLength(MAX_TEXT_LENGTH)
                .maxNumberLength(MAX_TEXT_LENGTH)
                .build();
        StreamWriteConstraints write = StreamWriteConstraints.builder()
                .maxNestingDepth(MAX_NESTING_DEPTH)
                .build();
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(read)
                .streamWriteConstraints(write)
                // Sub-quadratic parsing for huge integers, which Prolog produces easily.
                .enable(StreamReadFeature.USE_FAST_BIG_NUMBER_PARSER)
                .build();
        return JsonMapper.builder(factory)
                // Floats stay doubles: BigDecimal would make Prolog floats look like exact decimals.
                .disable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .build();
    }
}
