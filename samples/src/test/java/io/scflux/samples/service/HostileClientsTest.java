package io.scflux.samples.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.scflux.core.backend.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.cache.BlockCache;
import io.scflux.io.H5ad;
import io.scflux.io.test.TestFixtures;
import io.scflux.ops.HighlyVariableGenesOptions;
import io.scflux.ops.NormalizeTotalOptions;
import io.scflux.ops.PcaOptions;
import io.scflux.ops.QcMetricsOptions;
import io.scflux.ops.RankGenesGroupsOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import reactor.test.StepVerifier;

/**
 * The service against clients that try to break it, each over loopback: a job of thousands of steps, connections
 * that never send a request, the token sent in every spelling a log or an error might repeat, and requests Netty
 * cannot read. The service runs with a token of the test's, so that the test knows every spelling of it, and its
 * request log goes to {@link #logged}.
 */
class HostileClientsTest {

    static final Duration PATIENCE = Duration.ofSeconds(30);
    static final ObjectMapper JSON = new ObjectMapper();
    static final String INPUT = "synth-3k-b.h5ad";
    static final String TOKEN = "Tk.3_secret~Value-0123456789abcdefXYZ";

    @TempDir
    Path root;

    Path data;
    Service service;
    HttpClient client;
    final List<String> logged = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void copyFixture() throws IOException {
        data = Files.createDirectory(root.resolve("data"));
        Files.copy(TestFixtures.path(INPUT), data.resolve(INPUT));
    }

    @AfterEach
    void stop() {
        if (service != null) {
            service.dispose();
        }
    }

    void start(ServiceOptions options, Scheduler work) {
        service = Service.start(data, options, work, Streaming.DEFAULT, BlockCache.ofMegabytes(64), logged::add);
        client = HttpClient.newConnection().baseUrl("http://127.0.0.1:" + service.port())
                .headers(h -> h.set(HttpHeaderNames.AUTHORIZATION, "Bearer " + TOKEN));
    }

    void start() {
        start(options(), Schedulers.boundedElastic());
    }

    static ServiceOptions options() {
        return new ServiceOptions("127.0.0.1", 0, 2, 100, TOKEN, ServiceOptions.MAX_BODY_BYTES,
                ServiceOptions.MAX_RESULTS_BYTES);
    }

    /**
     * A job of more steps than {@link JobRequest#MAX_STEPS} is a 400 naming the cap, before anything runs; 5,000
     * steps (25 KB) once overflowed the stack and killed the server, which here goes on answering.
     */
    @ParameterizedTest
    @ValueSource(ints = {101, 5000})
    void aJobOfMoreStepsThanTheCapIsA400NamingIt(int steps) throws IOException {
        start();
        Reply reply = post("{\"input\": \"" + INPUT + "\", \"steps\": [" + String.join(", ", Collections.nCopies(steps,
                "\"qc\"")) + "]}");
        assertEquals(400, reply.status, reply.body);
        JsonNode problem = JSON.readTree(reply.body);
        assertEquals("steps", problem.get("field").asText());
        assertEquals("a job has at most 100 steps, got " + steps, problem.get("detail").asText());
        assertEquals(200, client.get().uri("/metrics").response().block(PATIENCE).status().code());
        try (var files = Files.list(data)) {
            assertEquals(1, files.count(), "no job ran");
        }
    }

    /** A job of exactly as many steps as the cap runs to its end. */
    @Test
    void aJobOfAsManyStepsAsTheCapRuns() throws IOException {
        start();
        Reply reply = post("{\"input\": \"" + INPUT + "\", \"steps\": [" + String.join(", ",
                Collections.nCopies(JobRequest.MAX_STEPS, "\"qc\"")) + "]}");
        assertEquals(202, reply.status, reply.body);
        String id = JSON.readTree(reply.body).get("id").asText();
        List<String> stages = client.get().uri("/jobs/" + id + "/events").responseContent().asString()
                .collect(Collectors.joining()).map(text -> Stream.of(text.split("\n\n")).toList()).block(PATIENCE);
        assertTrue(stages.get(stages.size() - 1).startsWith("event: done"), stages.get(stages.size() - 1));
        assertEquals(JobRequest.MAX_STEPS, stages.stream().filter(e -> e.startsWith("event: stage\ndata: "
                + "{\"stage\":\"qc\"")).count(), "a stage per step");
    }

    /**
     * Steps are applied one after the other in a loop: 200,000 of them, each giving the other of two containers, run
     * on this thread's stack (a flatMap per step overflowed it), each given what the one before gave, in order.
     */
    @Test
    void stepsAreAppliedInALoopNotByRecursion() throws IOException {
        AnnData a = H5ad.open(TestFixtures.path(INPUT)).block();
        AnnData b = new AnnData(a.x(), a.obs(), a.var());
        int n = 200_000;
        List<Step.Bound> steps = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            AnnData expected = i % 2 == 0 ? a : b;
            AnnData next = i % 2 == 0 ? b : a;
            steps.add((data, streaming) -> data == expected ? Mono.just(next)
                    : Mono.error(new AssertionError("a step was given the wrong container")));
        }
        int[] started = {0};
        StepVerifier.create(Job.applyAll(a, steps, Streaming.DEFAULT, i -> assertEquals(started[0]++, i)))
                .assertNext(out -> assertSame(a, out))
                .expectComplete()
                .verify(PATIENCE);
        assertEquals(n, started[0]);
    }

    /**
     * With an idle timeout of 1 s, 200 connections that send nothing and 10 that send a request's head a byte every
     * 100 ms (each byte would restart an idle timer) are all closed by the server between 1 s and 10 s after they
     * opened, while an authorised client is answered at once, a keep-alive connection idle after its answer is
     * closed the same way, and a response that lasts longer than the timeout (a job's events, held 2.5 s) is not cut.
     */
    @Test
    @Timeout(60)
    void connectionsWithoutARequestAreClosedAfterTheIdleTimeout() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        ExecutorService held = Executors.newSingleThreadExecutor();
        held.submit(() -> hold.await(30, TimeUnit.SECONDS));
        ExecutorService tricklers = Executors.newFixedThreadPool(10);
        List<Socket> idle = new ArrayList<>();
        try {
            start(options().withIdleTimeout(Duration.ofSeconds(1)), Schedulers.fromExecutorService(held));
            String job = JSON.readTree(post("{\"input\": \"" + INPUT + "\", \"steps\": [\"qc\"]}").body).get("id")
                    .asText();
            Mono<String> events = client.get().uri("/jobs/" + job + "/events").responseContent().asString()
                    .collect(Collectors.joining()).cache();
            events.subscribe();
            long opened = System.nanoTime();
            for (int i = 0; i < 200; i++) {
                idle.add(new Socket("127.0.0.1", service.port()));
            }
            List<Socket> trickling = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                Socket s = new Socket("127.0.0.1", service.port());
                trickling.add(s);
                tricklers.submit(() -> trickle(s));
            }
            Socket keptAlive = new Socket("127.0.0.1", service.port());
            idle.add(keptAlive);
            keptAlive.getOutputStream().write(("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                    + TOKEN + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            assertTrue(new String(keptAlive.getInputStream().readNBytes(12), StandardCharsets.US_ASCII)
                    .equals("HTTP/1.1 200"), "the keep-alive connection's request is answered");
            assertEquals(200, client.get().uri("/metrics").response().block(PATIENCE).status().code(),
                    "an authorised client is answered while 210 connections idle");
            idle.addAll(trickling);

            List<Long> closedAfterMs = new ArrayList<>();
            for (Socket s : idle) {
                closedAfterMs.add(awaitClosed(s, opened));
            }
            long first = Collections.min(closedAfterMs);
            long last = Collections.max(closedAfterMs);
            System.out.printf("HostileClientsTest: %d idle connections closed by the server %d to %d ms after they "
                    + "opened%n", closedAfterMs.size(), first, last);
            assertTrue(first >= 900 && last < 10_000, first + " to " + last + " ms");

            Thread.sleep(1500);    // the job's events have been streaming longer than the timeout
            hold.countDown();
            String stream = events.block(PATIENCE);
            assertTrue(stream.contains("event: done"), "a response longer than the idle timeout is not cut: " + stream);
            assertEquals(200, client.get().uri("/metrics").response().block(PATIENCE).status().code());
        } finally {
            for (Socket s : idle) {
                s.close();
            }
            tricklers.shutdownNow();
            hold.countDown();
            held.shutdown();
        }
    }

    /** Sends a request head a byte every 100 ms, for at most 10 s or until the server closes the connection. */
    private static Void trickle(Socket socket) {
        byte[] head = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII);
        try {
            OutputStream out = socket.getOutputStream();
            for (int i = 0; i < 100; i++) {
                out.write(i < head.length ? head[i] : 'x');
                out.flush();
                Thread.sleep(100);
            }
        } catch (IOException | InterruptedException e) {
            // closed: what the test waits for
        }
        return null;
    }

    /** The milliseconds from {@code opened} to the server's closing of {@code socket} (an end of stream or a reset). */
    private static long awaitClosed(Socket socket, long opened) throws IOException {
        socket.setSoTimeout(10_000);
        InputStream in = socket.getInputStream();
        try {
            while (in.read() >= 0) {
                // a keep-alive connection's rest of its answer
            }
        } catch (SocketException e) {
            // reset: closed too
        }
        return (System.nanoTime() - opened) / 1_000_000;
    }

    /**
     * The token never reaches the request log or an error, in any spelling a client sends it or a path carries it: in
     * the query, as a bearer token, as the cookie, in a parameter of another case or percent-encoded, in the path
     * itself (as it is or percent-encoded, which a 404 names), after a {@code ;token=} or an encoded {@code ?token=}
     * (where a wrong token is hidden too), and in the body (which a 400 names). Each request is logged once.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "/metrics?token=TOKEN                  | ",
        "/metrics                              | Authorization: Bearer TOKEN",
        "/metrics                              | Cookie: scflux-token-PORT=TOKEN",
        "/metrics?ToKeN=TOKEN                  | Authorization: Bearer TOKEN",
        "/metrics?t%6Fken=TOKEN                | Authorization: Bearer TOKEN",
        "/%3Ftoken%3DTOKEN                     | Authorization: Bearer TOKEN",
        "/%253FTOKEN%253DTOKEN                 | Authorization: Bearer TOKEN",
        "/jobs/TOKEN                           | Authorization: Bearer TOKEN",
        "/jobs/ENCODED                         | Authorization: Bearer TOKEN",
        "/jobs/x;token=WRONG-but-secret-token  | Authorization: Bearer TOKEN",
        "/x%3Ftoken=WRONG-but-secret-token     | Authorization: Bearer TOKEN",
        "/nowhere?token=WRONG-but-secret-token | ",
        "POST                                  | Authorization: Bearer TOKEN",
    })
    void theTokenIsNeverLoggedNorRepeated(String uri, String header) throws Exception {
        start();
        int port = service.port();
        String encoded = TOKEN.chars().mapToObj(c -> String.format("%%%02X", c)).collect(Collectors.joining());
        String path = uri.replace("TOKEN", TOKEN).replace("ENCODED", encoded).replace("PORT", Integer.toString(port));
        String[] headers = header == null ? new String[0]
                : new String[] {header.replace("TOKEN", TOKEN).replace("PORT", Integer.toString(port))};
        String body;
        if (uri.equals("POST")) {
            Reply reply = post("{\"input\": \"" + TOKEN + "\", \"steps\": [\"qc\"]}");
            assertEquals(400, reply.status);
            body = reply.body;
        } else {
            body = RawRequest.get(port, path, headers).body();
        }
        List<String> lines = awaitLogged(1);
        for (String secret : List.of(TOKEN, "WRONG-but-secret-token")) {
            for (String text : concat(lines, body)) {
                assertFalse(decoded(text).contains(secret.toLowerCase(Locale.ROOT)), secret + " in " + text);
            }
        }
        assertTrue(lines.get(0).startsWith(uri.equals("POST") ? "POST /jobs 400 " : "GET /"), lines.toString());
    }

    /**
     * What Netty cannot read is answered as every other error, an RFC 9457 problem document, and the connection
     * closed: a URI over its 4,096 bytes (414; the token in it is not logged), headers over its 8 KiB (431), a
     * request line that is not HTTP and a header line without a name (400). The request log has one line for each.
     */
    @ParameterizedTest
    @CsvSource({"long-uri, 414", "large-header, 431", "not-http, 400", "bad-header, 400"})
    void whatNettyCannotReadIsAProblemDocument(String kind, int status) throws Exception {
        start();
        String host = "Host: 127.0.0.1:" + service.port() + "\r\n";
        String request = switch (kind) {
            case "long-uri" -> "GET /metrics?token=" + TOKEN + "&pad=" + "a".repeat(5000) + " HTTP/1.1\r\n" + host
                    + "\r\n";
            case "large-header" -> "GET /metrics HTTP/1.1\r\n" + host + "X-Pad: " + "b".repeat(9000) + "\r\n\r\n";
            case "not-http" -> "GARBAGE \u0001\u0002\u001b[31m NOT-HTTP\r\n" + host + "\r\n";
            case "bad-header" -> "GET /metrics HTTP/1.1\r\n" + host + "no colon in this line\r\n\r\n";
            default -> throw new IllegalArgumentException(kind);
        };
        RawRequest.Answer answer = RawRequest.send(service.port(), request.getBytes(StandardCharsets.ISO_8859_1));
        assertEquals(status, answer.status(), answer.body());
        assertEquals(Problem.CONTENT_TYPE, answer.headers().get("content-type"));
        assertEquals("close", answer.headers().get("connection"));
        JsonNode problem = JSON.readTree(answer.body());
        assertEquals("about:blank", problem.get("type").asText());
        assertEquals(status, problem.get("status").asInt());
        assertFalse(problem.get("title").asText().isEmpty());
        assertFalse(problem.get("detail").asText().isEmpty());
        assertTrue(problem.get("detail").asText().chars().noneMatch(Character::isISOControl), answer.body());
        assertEquals(List.of("- (unread) " + status + " 0 ms"), awaitLogged(1));
    }

    /**
     * A param out of its range is refused with the message of the options record the step builds, the one the
     * command line gives, rather than a check of the service's own; the field names where it was given.
     */
    @ParameterizedTest
    @MethodSource("outOfRange")
    void paramsAreCheckedByTheOptionsRecords(String job, String field, Supplier<Object> record) throws IOException {
        start();
        Reply reply = post("{\"input\": \"" + INPUT + "\", " + job + "}");
        assertEquals(400, reply.status, reply.body);
        JsonNode problem = JSON.readTree(reply.body);
        assertEquals(field, problem.get("field").asText());
        assertEquals(assertThrows(IllegalArgumentException.class, record::get).getMessage(),
                problem.get("detail").asText());
    }

    static Stream<Arguments> outOfRange() {
        return Stream.of(
                Arguments.of("\"steps\": [\"hvg\"], \"params\": {\"n_top_genes\": -1}", "params.n_top_genes",
                        (Supplier<Object>) () -> HighlyVariableGenesOptions.defaults().withNTopGenes(-1)),
                Arguments.of("\"steps\": [{\"step\": \"pca\", \"params\": {\"n_comps\": 0}}]", "steps[0].params.n_comps",
                        (Supplier<Object>) () -> PcaOptions.defaults().withNComps(0)),
                Arguments.of("\"steps\": [\"rank_genes_groups\"], \"params\": {\"groupby\": \"cell_type\", "
                        + "\"n_genes\": 0}", "params.n_genes",
                        (Supplier<Object>) () -> RankGenesGroupsOptions.of("cell_type").withNGenes(0)),
                Arguments.of("\"steps\": [\"qc\"], \"params\": {\"percent_top\": [50, 0]}", "params.percent_top",
                        (Supplier<Object>) () -> QcMetricsOptions.defaults().withPercentTop(50, 0)),
                Arguments.of("\"steps\": [\"normalize\"], \"params\": {\"target_sum\": -1}", "params.target_sum",
                        (Supplier<Object>) () -> NormalizeTotalOptions.defaults().withTargetSum(-1.0)));
    }

    /** {@code text} percent-decoded until it no longer changes, in lower case. */
    private static String decoded(String text) {
        String out = text;
        for (String before = null; !out.equals(before);) {
            before = out;
            out = QueryStringDecoder.decodeComponent(out.replace("+", "%2B"));
        }
        return out.toLowerCase(Locale.ROOT);
    }

    private static List<String> concat(List<String> lines, String body) {
        List<String> all = new ArrayList<>(lines);
        all.add(body);
        return all;
    }

    /** The request log once it has {@code n} lines (it is written as a response ends, a moment after it is sent). */
    private List<String> awaitLogged(int n) throws InterruptedException {
        for (int i = 0; i < 500 && logged.size() < n; i++) {
            Thread.sleep(10);
        }
        synchronized (logged) {
            assertEquals(n, logged.size(), logged.toString());
            return List.copyOf(logged);
        }
    }

    private Reply post(String body) {
        return client.headers(h -> h.set("Content-Type", "application/json")).post().uri("/jobs")
                .send(ByteBufFlux.fromString(Mono.just(body)))
                .responseSingle((res, content) -> content.asString().defaultIfEmpty("").map(text -> new Reply(
                        res.status().code(), text)))
                .block(PATIENCE);
    }

    record Reply(int status, String body) {
    }
}
