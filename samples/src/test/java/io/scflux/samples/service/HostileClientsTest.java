/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.scflux.core.Settings;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.cache.BlockCache;
import io.scflux.io.H5ad;
import io.scflux.io.test.TestFixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

/**
 * The service against clients that do what no browser does, over plain sockets ({@link RawConnection}): a job of
 * thousands of steps, connections that send nothing or their head a byte at a time, more connections than it takes,
 * heads Netty cannot decode, the token in every spelling a log could carry, and a keep-alive connection whose requests
 * carry the token or not. Each expected value is written out here, from HTTP's rules and the service's documented
 * limits, not from the service's own output.
 */
class HostileClientsTest {

    static final Duration PATIENCE = Duration.ofSeconds(30);
    static final ObjectMapper JSON = new ObjectMapper();
    static final String INPUT = "synth-3k-b.h5ad";
    static final Duration IDLE = Duration.ofMillis(500);

    @TempDir
    Path root;

    Path data;
    Service service;
    /** The request log's lines. */
    final List<String> logged = new CopyOnWriteArrayList<>();

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

    void start(ServiceOptions options) {
        start(data, options);
    }

    void start(Path folder, ServiceOptions options) {
        service = Service.start(
                folder,
                options,
                Schedulers.boundedElastic(),
                Streaming.DEFAULT,
                BlockCache.ofMegabytes(16),
                logged::add);
    }

    /** A job of 5,000 steps (which overflowed the stack), or of 101, is a 400 naming the cap of 100; 100 pass. */
    @Test
    void aJobOfMoreThanAHundredStepsIsRefusedAndTheServerGoesOn() throws IOException {
        start(ServiceOptions.defaults());
        for (int n : new int[] {5_000, 101}) {
            RawConnection.Answer refused = post(steps(n));
            assertEquals(400, refused.status(), refused.body());
            assertEquals("application/problem+json", refused.headers().get("content-type"));
            JsonNode problem = JSON.readTree(refused.body());
            assertEquals("steps", problem.get("field").asText(), refused.body());
            assertEquals(
                    "a job has at most 100 steps, got " + n,
                    problem.get("detail").asText());
        }
        RawConnection.Answer accepted = post(steps(100));
        assertEquals(202, accepted.status(), accepted.body());
        assertEquals(200, get("/metrics", auth()).status(), "the server answers on");
    }

    /**
     * A job's steps are applied one after the other in a loop: 100,000 steps that each complete at once (a nested
     * flatMap per step recursed through each, and 5,000 overflowed the stack) run in order, on one stack.
     */
    @Test
    void stepsAreAppliedInALoopNotARecursion() {
        AnnData data = H5ad.open(this.data.resolve(INPUT)).block(PATIENCE);
        int n = 100_000;
        List<Integer> started = new ArrayList<>();
        List<Integer> applied = new ArrayList<>();
        List<Step.Bound> steps = IntStream.range(0, n)
                .<Step.Bound>mapToObj(i -> (d, streaming) -> Mono.fromCallable(() -> {
                    applied.add(i);
                    return d;
                }))
                .toList();
        StepVerifier.create(Job.applyAll(data, steps, Streaming.DEFAULT, started::add))
                .expectNext(data)
                .verifyComplete();
        List<Integer> expected = IntStream.range(0, n).boxed().toList();
        assertEquals(expected, started);
        assertEquals(expected, applied);
    }

    /** A connection that sends nothing is closed once the idle timeout has passed, not before. */
    @Test
    void aConnectionThatSendsNothingIsClosed() throws IOException {
        start(ServiceOptions.defaults().withIdleTimeout(IDLE));
        try (RawConnection idle = new RawConnection(service.port(), PATIENCE)) {
            long began = System.nanoTime();
            assertTrue(idle.closedByServer());
            long ms = (System.nanoTime() - began) / 1_000_000;
            assertTrue(ms >= IDLE.toMillis() - 100 && ms < 10_000, ms + " ms");
        }
    }

    /** A head sent a byte at a time is cut at the deadline, though bytes keep coming (an idle timer restarts). */
    @Test
    void aHeadSentAByteAtATimeIsClosedAtTheDeadline() throws Exception {
        start(ServiceOptions.defaults().withIdleTimeout(IDLE));
        try (RawConnection slow = new RawConnection(service.port(), PATIENCE)) {
            long began = System.nanoTime();
            Thread trickle = new Thread(() -> {
                try {
                    slow.send("GET /metrics HTTP/1.1\r\nX-Slow: ");
                    for (int i = 0; i < 300; i++) {
                        Thread.sleep(50);
                        slow.send("a");
                    }
                } catch (IOException | InterruptedException e) {
                    // closed by the server: what is expected
                }
            });
            trickle.start();
            assertTrue(slow.closedByServer());
            long ms = (System.nanoTime() - began) / 1_000_000;
            assertTrue(ms < 5 * IDLE.toMillis(), ms + " ms, while the trickle lasts 15 s");
            trickle.join(PATIENCE.toMillis());
        }
    }

    /** A keep-alive connection is closed once idle past the timeout after its answer. */
    @Test
    void aKeepAliveConnectionIdleAfterItsAnswerIsClosed() throws IOException {
        start(ServiceOptions.defaults().withIdleTimeout(IDLE));
        try (RawConnection c = new RawConnection(service.port(), PATIENCE)) {
            assertEquals(200, c.send(head("GET", "/metrics", auth())).read().status());
            assertEquals(200, c.send(head("GET", "/metrics", auth())).read().status(), "the connection is kept");
            long began = System.nanoTime();
            assertTrue(c.closedByServer());
            assertTrue((System.nanoTime() - began) / 1_000_000 >= IDLE.toMillis() - 100);
        }
    }

    /**
     * A request under way is not cut by the idle timeout: a job's events, followed for three timeouts while the job
     * waits for its scheduler's one thread, stay open; the connection closes once the stream has ended (the job
     * cancelled) and it has waited a timeout for the next request.
     */
    @Test
    void aStreamLongerThanTheTimeoutIsNotCut() throws Exception {
        CountDownLatch hold = new CountDownLatch(1);
        ExecutorService held = Executors.newSingleThreadExecutor();
        held.submit(() -> {
            hold.await();
            return null;
        });
        try {
            service = Service.start(
                    data,
                    ServiceOptions.defaults().withIdleTimeout(IDLE).withMaxJobs(1),
                    Schedulers.fromExecutorService(held),
                    Streaming.DEFAULT,
                    BlockCache.ofMegabytes(16),
                    logged::add);
            RawConnection.Answer accepted = post("{\"input\": \"" + INPUT + "\", \"steps\": [\"qc\"]}");
            assertEquals(202, accepted.status(), accepted.body());
            String id = JSON.readTree(accepted.body()).get("id").asText();
            try (RawConnection events = new RawConnection(service.port(), IDLE.multipliedBy(3))) {
                assertEquals(
                        200,
                        events.send(head("GET", "/jobs/" + id + "/events", auth()))
                                .read()
                                .status());
                assertFalse(events.closedByServer(), "the stream was cut");
                service.job(id).cancel();
                hold.countDown(); // the job goes on to see its cancel, and its stream ends
                long began = System.nanoTime();
                assertTrue(events.closedByServer(), "the connection idle after the stream's end");
                assertTrue((System.nanoTime() - began) / 1_000_000 >= IDLE.toMillis() - 100);
            }
        } finally {
            hold.countDown();
            held.shutdown();
        }
    }

    /**
     * The attack: 1,100 connections that send nothing, from a client without the token. At most the cap are
     * open at once, the oldest waiting ones closed to make room, and the token holder is answered at once.
     */
    @Test
    void connectionsThatSendNothingDoNotKeepOutTheTokenHolder() throws IOException {
        int max = 64;
        start(ServiceOptions.defaults().withMaxConnections(max));
        List<RawConnection> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 1_100; i++) {
                idle.add(new RawConnection(service.port(), Duration.ofSeconds(5)));
            }
            long began = System.nanoTime();
            try (RawConnection holder = new RawConnection(service.port(), PATIENCE)) {
                assertEquals(
                        200, holder.send(head("GET", "/metrics", auth())).read().status());
            }
            assertTrue((System.nanoTime() - began) / 1_000_000 < 5_000, "the token holder waited");
            assertTrue(idle.get(0).closedByServer(), "the first connection, waiting longest, was closed");
            assertTrue(service.connections() <= max, service.connections() + " connections");
        } finally {
            for (RawConnection c : idle) {
                c.close();
            }
        }
    }

    /** Over the cap, the connection that has waited longest for a request is closed, not the others. */
    @Test
    void overTheCapTheLongestWaitingConnectionMakesRoom() throws Exception {
        start(ServiceOptions.defaults().withMaxConnections(3));
        List<RawConnection> waiting = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                waiting.add(new RawConnection(
                        service.port(), Duration.ofSeconds(i == 0 ? 5 : 0).plusMillis(300)));
                Thread.sleep(100); // accepted in order
            }
            try (RawConnection fourth = new RawConnection(service.port(), PATIENCE)) {
                assertEquals(
                        200, fourth.send(head("GET", "/metrics", auth())).read().status());
            }
            assertTrue(waiting.get(0).closedByServer(), "the longest waiting is closed");
            assertFalse(waiting.get(1).closedByServer(), "the second is kept");
            assertFalse(waiting.get(2).closedByServer(), "the third is kept");
        } finally {
            for (RawConnection c : waiting) {
                c.close();
            }
        }
    }

    /**
     * What Netty's decoder refuses is a problem document like every other error, then the connection closes: a line
     * over 4,096 bytes is a 414, headers over 8,192 a 431, a line that is not HTTP/1.x a 400. The token is not
     * needed to be told so.
     */
    @ParameterizedTest
    @CsvSource({
        "uri, 414",
        "headers, 431",
        "version, 400",
    })
    void nettysOwnErrorsAreProblemDocuments(String what, int status) throws IOException {
        start(ServiceOptions.defaults());
        String request = switch (what) {
            case "uri" -> "GET /" + "a".repeat(5_000) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
            case "headers" -> "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + "a".repeat(10_000) + "\r\n\r\n";
            default -> "GET / JUNK\r\nHost: 127.0.0.1\r\n\r\n";
        };
        try (RawConnection c = new RawConnection(service.port(), PATIENCE)) {
            RawConnection.Answer answer = c.send(request).read();
            assertEquals(status, answer.status(), answer.body());
            assertEquals("application/problem+json", answer.headers().get("content-type"));
            assertEquals("close", answer.headers().get("connection"));
            JsonNode problem = JSON.readTree(answer.body());
            assertEquals(status, problem.get("status").asInt());
            assertFalse(problem.get("title").asText().isEmpty(), answer.body());
            assertFalse(problem.get("detail").asText().isEmpty(), answer.body());
            assertTrue(c.closedByServer());
        }
        assertEquals(List.of("- (unread) " + status + " 0 ms"), logged);
    }

    /**
     * The token in every spelling a request may carry it (the Authorization header, the query, the path as it is, in
     * another case, percent-encoded once, twice or ten times over (more than the service undoes), after
     * {@code ;token=}, in a cookie, in a line too long, headers too large or a line that is not HTTP) and a wrong
     * token in the query or the header are in no line of the request log and nothing printed on stderr (slf4j's
     * warnings, Reactor Netty's), nor in any answer, in any spelling: the texts are percent-decoded here until nothing
     * changes, and searched in any case.
     */
    @Test
    void theTokenIsNeverLoggedInAnySpelling() throws IOException {
        start(ServiceOptions.defaults());
        String token = service.token();
        String wrong = ServiceTest.wrong(token);
        String cookie = "Cookie: scflux-token-" + service.port() + "=" + token;
        List<String> requests = List.of(
                head("GET", "/metrics", auth()),
                head("GET", "/?token=" + token, ""),
                head("GET", "/metrics?token=" + wrong, ""),
                head("GET", "/metrics", "Authorization: Bearer " + wrong + "\r\n"),
                head("GET", "/metrics", cookie + "\r\n"),
                head("GET", "/jobs/" + token, auth()),
                head("GET", "/jobs/" + token.toLowerCase(Locale.ROOT), auth()),
                head("GET", "/jobs/" + encoded(token), auth()),
                head("GET", "/jobs/" + encoded(encoded(token)), auth()),
                head("GET", "/jobs/" + encoded(token, 10), auth()),
                head("GET", "/" + token + "/metrics", ""),
                head("GET", "/metrics;token=" + token, ""),
                head("GET", "/jobs/x%3Ftoken%3D" + token, auth()),
                head("GET", "/jobs/%0a" + token, auth()),
                head("GET", "/?token=" + token + "&pad=" + "a".repeat(5_000), ""),
                head("GET", "/", cookie + "\r\nX-Big: " + "a".repeat(10_000) + "\r\n"),
                "GET /?token=" + token + " " + token + "\r\nHost: 127.0.0.1\r\n\r\n");
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        List<String> answers = new ArrayList<>();
        PrintStream original = System.err;
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
        try {
            for (String request : requests) {
                try (RawConnection c = new RawConnection(service.port(), PATIENCE)) {
                    RawConnection.Answer answer = c.send(request).read();
                    answers.add(answer.status() + " " + answer.headers() + " " + answer.body());
                }
            }
        } finally {
            System.setErr(original);
        }
        long until = System.nanoTime() + PATIENCE.toNanos();
        while (logged.size() < requests.size() && System.nanoTime() < until) {
            Thread.yield(); // a line is written once its answer is sent, maybe after the client has read it
        }
        assertEquals(requests.size(), logged.size(), String.join("\n", logged));
        List<String> texts = new ArrayList<>(logged);
        texts.add(stderr.toString(StandardCharsets.UTF_8));
        for (String text : texts) {
            for (String secret : List.of(token, wrong)) {
                assertFalse(
                        decoded(text).toLowerCase(Locale.ROOT).contains(secret.toLowerCase(Locale.ROOT)),
                        "the token in: " + text);
            }
        }
        for (String line : logged) {
            assertFalse(line.contains("\n") || line.contains("\r"), line);
        }
        for (int i = 0; i < answers.size(); i++) {
            String answer = answers.get(i);
            if (i != 1) { // the answer to ?token= sets the cookie, whose value is the token
                assertFalse(
                        decoded(answer).toLowerCase(Locale.ROOT).contains(token.toLowerCase(Locale.ROOT)),
                        "the token in the answer to " + requests.get(i) + ": " + answer);
            }
        }
        assertTrue(logged.get(0).matches("GET /metrics 200 \\d+ ms"), logged.get(0));
    }

    /**
     * The token is checked per request: on one keep-alive connection, a request without it after one with it is a
     * 401, and one with it after one without is a 200. Ten connections of ten requests each, with and without the
     * token in turn: Reactor Netty 1.3.7 stopped reading about every other such connection after a 401 answered
     * inline on the event loop (reactor/reactor-netty#4361), until the service answered off it.
     */
    @Test
    void theTokenIsCheckedForEveryRequestOfAConnection() throws IOException {
        start(ServiceOptions.defaults());
        String wrong = "Authorization: Bearer " + ServiceTest.wrong(service.token()) + "\r\n";
        for (int round = 0; round < 10; round++) {
            try (RawConnection c = new RawConnection(service.port(), Duration.ofSeconds(10))) {
                for (int i = 0; i < 10; i++) {
                    String uri = i == 5 ? "/?token=" + service.token() : "/metrics";
                    String headers = i % 2 == 0 ? auth() : i == 3 ? wrong : "";
                    int expected = i % 2 == 0 || i == 5 ? 200 : 401;
                    assertEquals(
                            expected,
                            c.send(head("GET", uri, headers)).read().status(),
                            "request " + i + " of connection " + round);
                }
            }
        }
    }

    /**
     * A job that fails on a bad input names it relative to the data folder, never by the absolute path of the folder
     * (the data folder given through a link, as its real path): not a byte of the path outside it.
     */
    @Test
    void aFailedJobNamesItsInputRelativeToTheDataFolder() throws Exception {
        Files.writeString(data.resolve("bad.h5ad"), "not HDF5\n".repeat(100));
        Path link = Files.createSymbolicLink(root.resolve("link"), data);
        start(link, ServiceOptions.defaults());
        RawConnection.Answer accepted = post("{\"input\": \"bad.h5ad\", \"steps\": [\"qc\"]}");
        assertEquals(202, accepted.status(), accepted.body());
        Job job = service.job(JSON.readTree(accepted.body()).get("id").asText());
        long until = System.nanoTime() + PATIENCE.toNanos();
        while (!job.ended() && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        String error = job.last().data().get("error").asText();
        assertEquals("bad.h5ad: /: not an HDF5 file or truncated: No valid HDF5 signature found", error);
    }

    /**
     * What leaves the service names no server path: the data folder's paths become relative (as given, through a
     * link, or as its real path; the folder itself {@code .}), the cache folder's {@code <cache>} and the temporary
     * folder's {@code <tmp>}; the same names elsewhere (an HDF5 path, a longer folder name) are kept.
     */
    @Test
    void messagesNameNoServerPath() throws IOException {
        Path link = Files.createSymbolicLink(root.resolve("link"), data);
        DataFolder folder = new DataFolder(link, Settings.DEFAULT);
        String real = data.toRealPath().toString();
        String cache = Settings.DEFAULT.cacheDir().toAbsolutePath().normalize().toString();
        String tmp = Path.of(System.getProperty("java.io.tmpdir"))
                .toAbsolutePath()
                .normalize()
                .toString();
        assertEquals(
                "x.h5ad: /X/indptr: the disk is full in . (1 byte free)",
                folder.scrub(link + "/x.h5ad: /X/indptr: the disk is full in " + link + " (1 byte free)"));
        assertEquals("x.h5ad: no such file", folder.scrub(real + "/x.h5ad: no such file"));
        assertEquals(
                "<cache>/.tmp-transposed-1.part: the disk is full in <cache>",
                folder.scrub(cache + "/.tmp-transposed-1.part: the disk is full in " + cache));
        assertEquals(
                "<tmp>/spill-1.bin: no space left on device",
                folder.scrub(tmp + "/spill-1.bin: no space left on device"));
        String sibling = real + "2/y.h5ad";
        assertEquals(
                "/var/highly_variable: "
                        + (sibling.startsWith(tmp + "/") ? "<tmp>" + sibling.substring(tmp.length()) : sibling),
                folder.scrub("/var/highly_variable: " + sibling));
    }

    private RawConnection.Answer post(String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        try (RawConnection c = new RawConnection(service.port(), PATIENCE)) {
            return c.send("POST /jobs HTTP/1.1\r\nHost: 127.0.0.1:" + service.port() + "\r\n" + auth()
                            + "Content-Type: application/json\r\nContent-Length: " + bytes.length
                            + "\r\nConnection: close\r\n\r\n" + new String(bytes, StandardCharsets.ISO_8859_1))
                    .read();
        }
    }

    private RawConnection.Answer get(String uri, String headers) throws IOException {
        try (RawConnection c = new RawConnection(service.port(), PATIENCE)) {
            return c.send(head("GET", uri, headers)).read();
        }
    }

    /** A request's head: {@code headers} are lines each ending in CRLF. */
    private String head(String method, String uri, String headers) {
        return method + " " + uri + " HTTP/1.1\r\nHost: 127.0.0.1:" + service.port() + "\r\n" + headers + "\r\n";
    }

    private String auth() {
        return "Authorization: Bearer " + service.token() + "\r\n";
    }

    /** A job request of {@code n} log1p steps on the input. */
    private static String steps(int n) {
        return "{\"input\": \"" + INPUT + "\", \"steps\": ["
                + IntStream.range(0, n).mapToObj(i -> "\"log1p\"").collect(Collectors.joining(", ")) + "]}";
    }

    /** {@code text} percent-encoded {@code times} times over, each time after the first only its {@code %}. */
    private static String encoded(String text, int times) {
        String out = encoded(text);
        for (int i = 1; i < times; i++) {
            out = out.replace("%", "%25");
        }
        return out;
    }

    /** Every character of {@code text} percent-encoded. */
    private static String encoded(String text) {
        StringBuilder out = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            out.append(String.format("%%%02X", b & 0xff));
        }
        return out.toString();
    }

    /** {@code text} percent-decoded (java.net's decoder) until it no longer changes. */
    private static String decoded(String text) {
        String out = text.replace("+", "%2B");
        for (int i = 0; i < 20; i++) {
            String next;
            try {
                next = URLDecoder.decode(out.replaceAll("%(?![0-9A-Fa-f]{2})", "%25"), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                break;
            }
            if (next.equals(out)) {
                break;
            }
            out = next.replace("+", "%2B");
        }
        return out;
    }
}
