package io.prologtool.examples.formalizer;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@link Formalizer} that asks a language model, with the Formalizer-agent prompt of the PrologMCP
 * paper (Appendix C.1): the model answers with the program in {@code <prolog>...</prolog>} and the goal
 * in {@code <goal_true>...</goal_true>}; a reply without both is a {@link Formalization.Malformed}.
 * On a repair round the conversation is replayed (the model's earlier replies, each followed by the
 * structured error it caused), so the model sees what went wrong and fixes its own program.
 *
 * <p>Works with any LangChain4j {@link ChatModel}; the paper used temperature 0 and 4,096 output tokens:
 *
 * <pre>{@code
 * ChatModel model = OpenAiChatModel.builder().apiKey(System.getenv("OPENAI_API_KEY"))
 *         .modelName("gpt-4.1").temperature(0.0).maxTokens(4096).build();
 * // or AnthropicChatModel.builder().apiKey(System.getenv("ANTHROPIC_API_KEY"))
 * //         .modelName("claude-sonnet-4-6").temperature(0.0).maxTokens(4096).build();
 * Formalizer formalizer = new LlmFormalizer(model);
 * }</pre>
 *
 * Token counts come from the model's response metadata, when the provider reports them. Thread-safe
 * when the model is.
 */
public final class LlmFormalizer implements Formalizer {

    /** The Formalizer-agent system prompt of the PrologMCP paper, Appendix C.1. */
    public static final String PAPER_PROMPT = """
            You are a mechanical translator from English to SWI-Prolog. Your job is purely syntactic: \
            map each English sentence to its Prolog equivalent one-by-one. Do not trace, evaluate, or \
            solve the reasoning problem.

            Given a CONTEXT (facts and rules) and a yes/no QUESTION, produce:
            1. Valid SWI-Prolog source code that captures every fact and rule.
            2. A single query goal:
               - goal_true -- SUCCEEDS when the answer is TRUE
               If goal_true fails, the answer is FALSE (closed-world assumption: anything not provable \
            from the given facts and rules is false).

            SWI-Prolog conventions:
            - All atom names are lowercase and use underscores for spaces: `anne`, `is_kind`, `likes_fish`
            - Facts: `kind(anne).` `likes(bob, alice).`
            - Rules: `nice(X) :- kind(X).`
            - Negation-as-failure: `\\+` (e.g. `not_big(X) :- \\+ big(X).`)
            - Variables start with uppercase: `X`, `Y`, `Who`
            - Do NOT add a module declaration; the server handles namespacing.
            - Do NOT add `:- discontiguous` declarations; the server injects them automatically for any \
            predicate with multiple clauses.
            - For every predicate that appears ONLY inside `\\+` and is not defined by any fact or rule, \
            add `:- dynamic pred/arity.` -- otherwise SWI-Prolog throws existence_error instead of failing cleanly.

            Negation -- critical rule (no exceptions, apart from goal):
            Every `\\+` in a rule body MUST check `initially/2`, never the derived predicate directly.
            Do not reason about whether a predicate could be derived -- apply this rule unconditionally \
            to every negation:
            - Assert every base fact in TWO forms: `pred(entity).` and `initially(pred, entity).`
            - Write `\\+ initially(pred, X)` for EVERY negation in every rule body.

            Example -- "if someone is not high then they are dull":
              dull(X) :- \\+ initially(high, X).   % correct
              dull(X) :- \\+ high(X).              % WRONG -- high/1 may be derived

            Example -- "if someone is sad and not quiet then they are rough":
              rough(X) :- sad(X), \\+ initially(quiet, X).   % correct
              rough(X) :- sad(X), \\+ quiet(X).              % WRONG -- quiet/1 may be derived

            Do **not** put `initially/2` in the goal.
            Example goal -- "Anne is not sad."
              \\+sad(anne).

            Response format -- output ONLY the XML tags below, no reasoning text:
            <prolog>
            % facts and rules
            fact(entity).
            initially(fact, entity).
            conclusion(X) :- premise(X).
            </prolog>
            <goal_true>query_predicate(entity)</goal_true>
            """;

    private static final Pattern PROLOG = Pattern.compile("<prolog>(.*?)</prolog>", Pattern.DOTALL);
    private static final Pattern GOAL = Pattern.compile("<goal_true>(.*?)</goal_true>", Pattern.DOTALL);
    private static final Pattern FENCE = Pattern.compile("^\\s*```[a-zA-Z]*\\s*\\n(.*?)\\n?\\s*```\\s*$", Pattern.DOTALL);

    private final ChatModel model;
    private final String systemPrompt;
    private final String endpoint;

    /** A formalizer over {@code model} with the paper's prompt. */
    public LlmFormalizer(ChatModel model) {
        this(model, PAPER_PROMPT);
    }

    /** A formalizer over {@code model} with another system prompt (it must ask for the same two tags). */
    public LlmFormalizer(ChatModel model, String systemPrompt) {
        this(model, systemPrompt, "the model provider's default URL");
    }

    /**
     * A formalizer over {@code model} with {@code systemPrompt}; {@code endpoint} (the model's base URL)
     * names it when it cannot be reached ({@link ModelUnreachableException}).
     */
    public LlmFormalizer(ChatModel model, String systemPrompt, String endpoint) {
        this.model = Objects.requireNonNull(model, "model");
        this.systemPrompt = Objects.requireNonNull(systemPrompt, "systemPrompt");
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    }

    @Override
    public String name() {
        return "llm";
    }

    /** The user message for a problem: the context and the question, labelled as the prompt names them. */
    public static String userMessage(Problem problem) {
        return "CONTEXT:\n" + problem.context().strip() + "\n\nQUESTION:\n" + problem.question().strip();
    }

    /**
     * Asks the model. The conversation is the system prompt, the problem, and for each earlier attempt
     * the model's reply and the error it led to ({@link AttemptError#feedback()}); an attempt whose model
     * call failed ({@link AttemptError.Stage#MODEL}) had no reply and is left out. A failing model call
     * throws here; {@link FormalizerAgent} records it as a failed attempt, except a model that cannot be
     * reached at all ({@link ModelUnreachableException}, naming the endpoint), which ends the run.
     */
    @Override
    public Formalization formalize(Problem problem, List<Attempt> previous) {
        Objects.requireNonNull(problem, "problem");
        Objects.requireNonNull(previous, "previous");
        List<ChatMessage> messages = new ArrayList<>();
        messages.add(SystemMessage.from(systemPrompt));
        messages.add(UserMessage.from(userMessage(problem)));
        for (Attempt a : previous) {
            if (a.error().filter(e -> e.stage() == AttemptError.Stage.MODEL).isPresent()) {
                continue; // the model call failed: there is no reply to show
            }
            String reply = a.formalization().response();
            messages.add(AiMessage.from(reply.isEmpty() ? "(empty reply)" : reply));
            messages.add(UserMessage.from(a.error().map(AttemptError::feedback)
                    .orElse("That attempt gave no answer. Reply again in the same format.")));
        }
        ChatResponse response;
        try {
            response = model.chat(ChatRequest.builder().messages(messages).build());
        } catch (RuntimeException e) {
            if (ModelUnreachableException.isUnreachable(e)) {
                throw new ModelUnreachableException(endpoint, e);
            }
            throw e;
        }
        String text = response.aiMessage() == null || response.aiMessage().text() == null
                ? "" : response.aiMessage().text();
        return parse(text, tokens(response.tokenUsage()));
    }

    /**
     * Reads a reply: the program between {@code <prolog>} tags and the goal between {@code <goal_true>}
     * tags (a Markdown code fence inside a tag is removed, and so are a leading {@code ?-} and the final
     * full stop of the goal). Missing or empty tags give a {@link Formalization.Malformed} that says
     * which.
     */
    public static Formalization parse(String reply, Optional<Tokens> tokens) {
        Objects.requireNonNull(reply, "reply");
        Matcher p = PROLOG.matcher(reply);
        Matcher g = GOAL.matcher(reply);
        boolean hasProgram = p.find();
        boolean hasGoal = g.find();
        if (!hasProgram || !hasGoal) {
            String missing = !hasProgram && !hasGoal ? "both <prolog>...</prolog> and <goal_true>...</goal_true> are"
                    : !hasProgram ? "<prolog>...</prolog> is" : "<goal_true>...</goal_true> is";
            return new Formalization.Malformed("format error: " + missing + " missing", reply, tokens);
        }
        String program = unfence(p.group(1)).strip();
        String goal = unfence(g.group(1)).strip();
        if (goal.startsWith("?-")) {
            goal = goal.substring(2).strip();
        }
        if (goal.endsWith(".")) {
            goal = goal.substring(0, goal.length() - 1).strip();
        }
        if (program.isEmpty()) {
            return new Formalization.Malformed("format error: <prolog>...</prolog> is empty", reply, tokens);
        }
        if (goal.isEmpty()) {
            return new Formalization.Malformed("format error: <goal_true>...</goal_true> is empty", reply, tokens);
        }
        return new Formalization.Parsed(program + "\n", goal, reply, tokens);
    }

    private static String unfence(String s) {
        Matcher m = FENCE.matcher(s);
        return m.matches() ? m.group(1) : s;
    }

    private static Optional<Tokens> tokens(TokenUsage usage) {
        if (usage == null || (usage.inputTokenCount() == null && usage.outputTokenCount() == null)) {
            return Optional.empty();
        }
        long in = usage.inputTokenCount() == null ? 0 : usage.inputTokenCount();
        long out = usage.outputTokenCount() == null ? 0 : usage.outputTokenCount();
        return Optional.of(new Tokens(in, out));
    }
}
