package io.prologtool.json;

import static io.prologtool.Term.NIL;
import static io.prologtool.Term.atom;
import static io.prologtool.Term.compound;
import static io.prologtool.Term.integer;
import static io.prologtool.Term.list;
import static io.prologtool.Term.real;
import static io.prologtool.Term.string;
import static io.prologtool.Term.variable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import io.prologtool.Term;
import java.io.StringWriter;
import java.math.BigInteger;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class TermJsonTest {

    /** The two decoding paths, which must agree: streaming text, and a tree read beforehand. */
    enum Decoder {
        STREAMING(TermJson::fromJson),
        TREE(json -> TermJson.decode(readTree(json)));

        private final Function<String, Term> decode;

        Decoder(Function<String, Term> decode) {
            this.decode = decode;
        }

        Term decode(String json) {
            return decode.apply(json);
        }
    }

    private static JsonNode readTree(String json) {
        try {
            return TermJson.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new AssertionError("test JSON is not valid: " + json, e);
        }
    }

    /** Lets tests write JSON with single quotes. */
    private static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    // ---------------------------------------------------------------------------------------------
    // The exact wire format
    // ---------------------------------------------------------------------------------------------

    static Stream<Arguments> wireFormat() {
        return Stream.of(
                Arguments.of(atom("bob"), "{'type':'atom','value':'bob'}"),
                Arguments.of(atom("[]"), "{'type':'atom','value':'[]'}"),
                Arguments.of(integer(123), "{'type':'integer','value':123}"),
                Arguments.of(integer(BigInteger.TWO.pow(200).negate()),
                        "{'type':'integer','value':-1606938044258990275541962092341162602522202993782792835301376}"),
                Arguments.of(real(1.5), "{'type':'float','value':1.5}"),
                Arguments.of(real(-0.0), "{'type':'float','value':-0.0}"),
                Arguments.of(real(Double.POSITIVE_INFINITY), "{'type':'float','value':'inf'}"),
                Arguments.of(real(Double.NEGATIVE_INFINITY), "{'type':'float','value':'-inf'}"),
                Arguments.of(real(Double.NaN), "{'type':'float','value':'nan'}"),
                Arguments.of(string("text"), "{'type':'string','value':'text'}"),
                Arguments.of(NIL, "{'type':'list','elements':[]}"),
                Arguments.of(list(atom("a"), integer(1)),
                        "{'type':'list','elements':[{'type':'atom','value':'a'},{'type':'integer','value':1}]}"),
                Arguments.of(list(List.of(atom("a")), variable("T")),
                        "{'type':'list','elements':[{'type':'atom','value':'a'}],'tail':{'type':'variable','name':'T'}}"),
                Arguments.of(compound("[|]", atom("a"), atom("[]")),
                        "{'type':'list','elements':[{'type':'atom','value':'a'}],'tail':{'type':'atom','value':'[]'}}"),
                Arguments.of(compound("[|]", atom("a")),
                        "{'type':'compound','functor':'[|]','args':[{'type':'atom','value':'a'}]}"),
                Arguments.of(compound("f", atom("a"), NIL),
                        "{'type':'compound','functor':'f','args':[{'type':'atom','value':'a'},{'type':'list','elements':[]}]}"),
                Arguments.of(compound("f"), "{'type':'compound','functor':'f','args':[]}"),
                Arguments.of(variable("_G1"), "{'type':'variable','name':'_G1'}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wireFormat")
    void writesTheWireFormatWithTypeFirst(Term term, String expected) throws Exception {
        assertThat(TermJson.toJson(term)).isEqualTo(json(expected));
        assertThat(TermJson.mapper().writeValueAsString(TermJson.encode(term))).isEqualTo(json(expected));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wireFormat")
    void readsTheWireFormat(Term term, String json) {
        for (Decoder decoder : Decoder.values()) {
            assertThat(decoder.decode(json(json))).as(decoder.name()).isEqualTo(term);
        }
    }

    @Test
    void escapesControlCharactersAndKeepsUnicodeInJsonText() {
        String text = TermJson.toJson(string("a\u0000b\nc\"d\\e😀é"));

        assertThat(text).isEqualTo("{\"type\":\"string\",\"value\":\"a\\u0000b\\nc\\\"d\\\\e😀é\"}");
    }

    // ---------------------------------------------------------------------------------------------
    // Round trips
    // ---------------------------------------------------------------------------------------------

    static Stream<Term> roundTripTerms() {
        return Stream.of(
                atom("bob"), atom("true"), atom("false"), atom("null"), atom("[]"), atom(""), atom("1"),
                atom("😀"), atom("e\u0301"), atom("it's \"quoted\" \\ back\u0000slash\nnew\tline"),
                string("true"), string("1"), string(""), string("😀 e\u0301"),
                string("it's \"quoted\" \\ back\u0000slash\nnew\tline\r"),
                integer(0), integer(1), integer(-1), integer(Long.MAX_VALUE), integer(Long.MIN_VALUE),
                integer(BigInteger.TWO.pow(200)), integer(BigInteger.TWO.pow(200).negate()),
                real(0.0), real(-0.0), real(0.1), real(1.0), real(2.0), real(-1.5), real(1e300), real(-1e-300),
                real(Double.MIN_VALUE), real(Double.MAX_VALUE), real(Double.POSITIVE_INFINITY),
                real(Double.NEGATIVE_INFINITY), real(Double.NaN),
                NIL, variable("X"), variable("_G123"), variable("_"),
                compound("f"), compound("[]"), compound("{}", compound(",", atom("a"), atom("b"))),
                compound("f", atom("a"), compound("g", compound("h", integer(1), string("s")), NIL), real(1.5)),
                list(atom("a"), string("a"), integer(1), real(1.0), NIL, atom("[]"), list(atom("nested"))),
                list(List.of(atom("a"), atom("b")), variable("T")),
                list(List.of(atom("a")), atom("[]")),
                list(List.of(atom("a")), compound("f", list(List.of(integer(1)), variable("U")))),
                compound("[|]", atom("a"), atom("b"), atom("c")),
                compound("[|]", atom("only")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("roundTripTerms")
    void roundTripsThroughJsonText(Term term) {
        String text = TermJson.toJson(term);

        for (Decoder decoder : Decoder.values()) {
            assertThat(decoder.decode(text)).as(decoder.name()).isEqualTo(term);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("roundTripTerms")
    void roundTripsThroughJsonTrees(Term term) {
        assertThat(TermJson.decode(TermJson.encode(term))).isEqualTo(term);
    }

    @Test
    void atomStringAndNumberNeverBlur() {
        assertThat(TermJson.fromJson(TermJson.toJson(atom("1")))).isInstanceOf(Term.Atom.class);
        assertThat(TermJson.fromJson(TermJson.toJson(string("1")))).isInstanceOf(Term.Str.class);
        assertThat(TermJson.fromJson(TermJson.toJson(integer(1)))).isInstanceOf(Term.Int.class);
        assertThat(TermJson.fromJson(TermJson.toJson(real(1.0)))).isInstanceOf(Term.Float.class);
        assertThat(TermJson.fromJson(TermJson.toJson(atom("true")))).isEqualTo(atom("true"));
        assertThat(TermJson.fromJson(TermJson.toJson(atom("null")))).isEqualTo(atom("null"));
    }

    @Test
    void negativeZeroKeepsItsSign() {
        Term back = TermJson.fromJson(TermJson.toJson(real(-0.0)));

        assertThat(back).isInstanceOfSatisfying(Term.Float.class, f ->
                assertThat(Double.doubleToRawLongBits(f.value())).isEqualTo(Double.doubleToRawLongBits(-0.0)));
    }

    @Test
    void nilAndTheAtomNamedEmptyBracketsStayDistinct() {
        assertThat(TermJson.fromJson(TermJson.toJson(NIL))).isSameAs(NIL);
        assertThat(TermJson.fromJson(TermJson.toJson(atom("[]")))).isEqualTo(atom("[]"));
    }

    @ParameterizedTest
    @EnumSource(Decoder.class)
    void roundTripsAMillionElementListWithoutOverflowingTheStack(Decoder decoder) {
        Term big = list(Collections.nCopies(1_000_000, atom("a")));

        String text = TermJson.toJson(big);
        Term back = decoder.decode(text);

        // Compared in pieces, because a failure would otherwise print megabytes.
        assertThat(text.substring(0, 55)).isEqualTo("{\"type\":\"list\",\"elements\":[{\"type\":\"atom\",\"value\":\"a\"},");
        assertThat(back.equals(big)).isTrue();
        assertThat(back.asList().map(List::size)).contains(1_000_000);
    }

    @Test
    void encodesAndDecodesAMillionElementListAsATree() {
        Term big = list(List.of(integer(-1)), list(Collections.nCopies(1_000_000, atom("a")), variable("T")));

        JsonNode tree = TermJson.encode(big);
        Term back = TermJson.decode(tree);

        assertThat(tree.get("elements").size()).isEqualTo(1_000_001);
        assertThat(tree.get("tail").get("name").textValue()).isEqualTo("T");
        assertThat(back.equals(big)).isTrue();
    }

    @Test
    void roundTripsTermsNestedTwentyThousandLevelsDeep() {
        // Each level is four JSON levels (compound, args, list, elements): 80,000 in all.
        Term deep = atom("x");
        for (int i = 0; i < 20_000; i++) {
            deep = compound("f", list(deep), atom("b"));
        }

        String text = TermJson.toJson(deep);

        assertThat(TermJson.fromJson(text).equals(deep)).isTrue();
        assertThat(TermJson.decode(readTree(text)).equals(deep)).isTrue();
        assertThat(TermJson.decode(TermJson.encode(deep)).equals(deep)).isTrue();
    }

    @Test
    void refusesToWriteTermsDeeperThanTheMapperReads() {
        Term deep = atom("x");
        for (int i = 0; i < 60_000; i++) {
            deep = compound("f", deep);
        }
        Term tooDeep = deep;

        assertThatThrownBy(() -> TermJson.toJson(tooDeep))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nests too deeply");
    }

    // ---------------------------------------------------------------------------------------------
    // Lenient decoding
    // ---------------------------------------------------------------------------------------------

    static Stream<Arguments> acceptedVariants() {
        return Stream.of(
                Arguments.of("{'type':'integer','value':'-123'}", integer(-123)),
                Arguments.of("{'type':'integer','value':'1606938044258990275541962092341162602522202993782792835301376'}",
                        integer(BigInteger.TWO.pow(200))),
                Arguments.of("{'type':'integer','value':123456789012345678901234567890}",
                        integer(new BigInteger("123456789012345678901234567890"))),
                Arguments.of("{'type':'float','value':2}", real(2.0)),
                Arguments.of("{'type':'float','value':1e300}", real(1e300)),
                Arguments.of("{'type':'float','value':4.9E-324}", real(Double.MIN_VALUE)),
                Arguments.of("{'type':'float','value':0.1}", real(0.1)),
                Arguments.of("{'type':'float','value':-0.0}", real(-0.0)),
                Arguments.of("{'type':'atom','value':'\\ud83d\\ude00'}", atom("😀")),
                Arguments.of("{'value':'bob','type':'atom'}", atom("bob")),
                Arguments.of("{'args':[{'type':'atom','value':'a'}],'functor':'f','type':'compound'}",
                        compound("f", atom("a"))),
                Arguments.of("{'type':'compound','args':[{'type':'atom','value':'a'}],'functor':'f'}",
                        compound("f", atom("a"))),
                Arguments.of("{'type':'list','tail':{'type':'variable','name':'T'},'elements':[{'type':'atom','value':'a'}]}",
                        list(List.of(atom("a")), variable("T"))),
                Arguments.of("{'elements':[{'type':'atom','value':'a'}],'type':'list'}", list(atom("a"))),
                Arguments.of("{'type':'atom','value':'bob','extra':{'deep':[1,2,{'x':null}]}}", atom("bob")),
                Arguments.of("{'type':'compound','functor':'f','note':[1,[2]],'args':[]}", compound("f")),
                Arguments.of("{'type':'list','elements':[{'type':'atom','value':'a'}],"
                                + "'tail':{'type':'list','elements':[{'type':'atom','value':'b'}]}}",
                        list(atom("a"), atom("b"))),
                Arguments.of("{'type':'list','elements':[],'tail':{'type':'variable','name':'T'}}", variable("T")),
                Arguments.of("{'type':'list','elements':[],'tail':{'type':'list','elements':[]}}", NIL),
                Arguments.of("{'type':'list','elements':[{'type':'atom','value':'a'}],'tail':{'type':'list','elements':[]}}",
                        list(atom("a"))),
                Arguments.of("  {'type':'atom','value':'bob'}\n", atom("bob")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("acceptedVariants")
    void decodesAcceptedVariants(String input, Term expected) {
        for (Decoder decoder : Decoder.values()) {
            assertThat(decoder.decode(json(input))).as(decoder.name()).isEqualTo(expected);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Malformed input
    // ---------------------------------------------------------------------------------------------

    static Stream<Arguments> malformedTerms() {
        return Stream.of(
                Arguments.of("[]", "at $: expected a JSON object for a term, got array"),
                Arguments.of("'bob'", "at $: expected a JSON object for a term, got string \"bob\""),
                Arguments.of("null", "at $: expected a JSON object for a term, got null"),
                Arguments.of("{}", "at $: missing \"type\""),
                Arguments.of("{'value':'a'}", "at $: missing \"type\""),
                Arguments.of("{'type':5}", "\"type\" must be a JSON string, got number 5"),
                Arguments.of("{'type':'blob','value':1}", "unknown term type \"blob\""),
                Arguments.of("{'type':'Atom','value':'a'}", "unknown term type \"Atom\""),
                Arguments.of("{'type':'atom'}", "atom is missing \"value\""),
                Arguments.of("{'type':'atom','value':5}", "atom \"value\" must be a JSON string, got number 5"),
                Arguments.of("{'type':'string','value':null}", "string \"value\" must be a JSON string, got null"),
                Arguments.of("{'type':'variable','value':'X'}", "variable is missing \"name\""),
                Arguments.of("{'type':'integer','value':1.5}", "integer \"value\" must be a JSON integer"),
                Arguments.of("{'type':'integer','value':'12a'}", "got string \"12a\""),
                Arguments.of("{'type':'integer','value':'+5'}", "got string \"+5\""),
                Arguments.of("{'type':'integer','value':''}", "integer \"value\" must be"),
                Arguments.of("{'type':'integer','value':'-'}", "integer \"value\" must be"),
                Arguments.of("{'type':'integer','value':'\u0661\u0662'}", "integer \"value\" must be"),
                Arguments.of("{'type':'integer','value':true}", "got boolean true"),
                Arguments.of("{'type':'float','value':'infinity'}", "float \"value\" must be a JSON number or one of"),
                Arguments.of("{'type':'float','value':'1.5'}", "float \"value\" must be"),
                Arguments.of("{'type':'float'}", "float is missing \"value\""),
                Arguments.of("{'type':'compound','functor':'f'}", "compound is missing \"args\""),
                Arguments.of("{'type':'compound','args':[]}", "compound is missing \"functor\""),
                Arguments.of("{'type':'compound','functor':3,'args':[]}", "compound \"functor\" must be a JSON string"),
                Arguments.of("{'type':'compound','functor':'f','args':{}}", "compound \"args\" must be a JSON array, got object"),
                Arguments.of("{'type':'list'}", "list is missing \"elements\""),
                Arguments.of("{'type':'list','elements':'a'}", "list \"elements\" must be a JSON array, got string"),
                Arguments.of("{'type':'list','elements':[],'tail':null}", "at $.tail: expected a JSON object for a term, got null"),
                Arguments.of("{'type':'list','elements':[1]}", "at $.elements[0]: expected a JSON object for a term, got number 1"),
                Arguments.of("{'type':'compound','functor':'f','args':[{'type':'atom','value':'a'},"
                                + "{'type':'list','elements':[{'type':'atom'}]}]}",
                        "at $.args[1].elements[0]: atom is missing \"value\""),
                Arguments.of("{'type':'list','elements':[{'type':'atom','value':'a'}],'tail':{'type':'nope'}}",
                        "at $.tail: unknown term type \"nope\""),
                Arguments.of("{'type':'list','elements':[{'value':'x','type':'atom'},{'value':5,'type':'atom'}]}",
                        "at $.elements[1]: atom \"value\" must be a JSON string"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedTerms")
    void rejectsMalformedTermsWithTheirLocation(String input, String expectedMessagePart) {
        for (Decoder decoder : Decoder.values()) {
            assertThatThrownBy(() -> decoder.decode(json(input)))
                    .as(decoder.name())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("Malformed term JSON")
                    .hasMessageContaining(expectedMessagePart);
        }
    }

    @Test
    void rejectsTextThatIsNotJson() {
        assertThatThrownBy(() -> TermJson.fromJson("{\"type\":\"atom\",\"value\":"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not valid JSON")
                .hasMessageContaining("line 1");
        assertThatThrownBy(() -> TermJson.fromJson("{type:atom}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not valid JSON");
    }

    @Test
    void rejectsEmptyInput() {
        assertThatThrownBy(() -> TermJson.fromJson(""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no JSON value");
        assertThatThrownBy(() -> TermJson.fromJson("   "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no JSON value");
    }

    @Test
    void rejectsContentAfterTheTerm() {
        assertThatThrownBy(() -> TermJson.fromJson(
                        "{\"type\":\"atom\",\"value\":\"a\"} {\"type\":\"atom\",\"value\":\"b\"}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unexpected content after the term");
    }

    @Test
    void rejectsATreeThatIsNotAnObject() {
        assertThatThrownBy(() -> TermJson.decode(IntNode.valueOf(3)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got number 3");
    }

    // ---------------------------------------------------------------------------------------------
    // Terms inside larger documents
    // ---------------------------------------------------------------------------------------------

    @Test
    void writesAndReadsATermInsideALargerDocument() throws Exception {
        Term goal = compound("member", variable("X"), list(integer(1), integer(2)));
        StringWriter out = new StringWriter();
        try (JsonGenerator generator = TermJson.mapper().createGenerator(out)) {
            generator.writeStartObject();
            generator.writeFieldName("goal");
            TermJson.write(goal, generator);
            generator.writeNumberField("limit", 5);
            generator.writeEndObject();
        }

        Term read;
        int limit;
        try (JsonParser parser = TermJson.mapper().createParser(out.toString())) {
            assertThat(parser.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            assertThat(parser.nextFieldName()).isEqualTo("goal");
            parser.nextToken();
            read = TermJson.read(parser);
            assertThat(parser.currentToken()).isEqualTo(JsonToken.END_OBJECT);
            assertThat(parser.nextFieldName()).isEqualTo("limit");
            limit = parser.nextIntValue(-1);
        }

        assertThat(out.toString()).startsWith("{\"goal\":{\"type\":\"compound\",\"functor\":\"member\",")
                .endsWith(",\"limit\":5}");
        assertThat(read).isEqualTo(goal);
        assertThat(limit).isEqualTo(5);
    }

    // ---------------------------------------------------------------------------------------------
    // The shared mapper
    // ---------------------------------------------------------------------------------------------

    @Test
    void mapperIsShared() {
        assertThat(TermJson.mapper()).isSameAs(TermJson.mapper());
    }

    @Test
    void mapperReadsBigIntegersExactlyAndFloatsAsDoubles() {
        JsonNode big = readTree("123456789012345678901234567890");
        JsonNode real = readTree("0.1");

        assertThat(big.isBigInteger()).isTrue();
        assertThat(big.bigIntegerValue()).isEqualTo(new BigInteger("123456789012345678901234567890"));
        assertThat(real.isDouble()).isTrue();
        assertThat(real.doubleValue()).isEqualTo(0.1);
    }

    @Test
    void mapperReadsIntegersFarLongerThanJacksonsDefaultLimit() {
        String digits = "9".repeat(5_000);
        String input = "{\"type\":\"integer\",\"value\":" + digits + "}";

        for (Decoder decoder : Decoder.values()) {
            assertThat(decoder.decode(input)).as(decoder.name()).isEqualTo(integer(new BigInteger(digits)));
        }
    }

    @Test
    void mapperReadsStringsLongerThanJacksonsDefaultLimit() {
        String value = "x".repeat(25_000_000);

        Term back = TermJson.fromJson(TermJson.toJson(string(value)));

        assertThat(back).isInstanceOfSatisfying(Term.Str.class, s -> assertThat(s.value()).hasSize(25_000_000));
    }

    @Test
    void mapperReadsNestingFarDeeperThanJacksonsDefaultLimit() {
        int depth = 30_000;
        JsonNode tree = readTree("[".repeat(depth) + "]".repeat(depth));

        int levels = 0;
        for (JsonNode node = tree; node.isArray(); node = node.path(0)) {
            levels++;
        }
        assertThat(levels).isEqualTo(depth);
    }

    @Test
    void mapperRejectsTrailingContent() {
        assertThatThrownBy(() -> TermJson.mapper().readTree("1 2")).isInstanceOf(JsonProcessingException.class);
    }

    /** Issue 36: text that UTF-8 cannot carry (a lone surrogate) is escaped and decodes back to the same term. */
    @org.junit.jupiter.api.Test
    void loneSurrogatesAreEscapedAndDecodeBack() {
        io.prologtool.Term t = io.prologtool.Term.compound("f", io.prologtool.Term.atom("a\uD800b"),
                io.prologtool.Term.string("\uDFFF"), io.prologtool.Term.atom("\uD83D\uDE00"));
        String json = TermJson.toJson(t);
        org.assertj.core.api.Assertions.assertThat(json).contains("\\ud800").contains("\\udfff")
                .contains("\uD83D\uDE00"); // a pair stays as it is
        org.assertj.core.api.Assertions.assertThat(TermJson.fromJson(
                new String(json.getBytes(java.nio.charset.StandardCharsets.UTF_8), java.nio.charset.StandardCharsets.UTF_8)))
                .isEqualTo(t);
        org.assertj.core.api.Assertions.assertThat(TermJson.escapeLoneSurrogates("plain")).isSameAs("plain");
    }
}
