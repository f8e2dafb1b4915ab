/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What scflux logs on stderr, run as a user runs it, in a child JVM (slf4j-simple is set up once per JVM, in
 * {@code main}): nothing by default, what a run does with {@code -v} (a CSC input's row-major copy, the device),
 * details with {@code -vv}, only errors with {@code -q}; {@code serve} one line per request by default.
 */
@Tag("slow")
class LoggingTest {

    private static final Path CSC = Cli.FIXTURES.resolve("synth-3k.csc-gzip.h5ad");
    private static final String COPY = "is stored by columns (CSC): writing its row-major copy (";
    private static final String INFO = "scflux: INFO ";

    @TempDir
    Path tmp;

    @Test
    void aDefaultRunLogsNothingAndVerboseSaysWhatItDoes() throws Exception {
        Path cache = tmp.resolve("cache");
        Run quiet = scflux(
                cache, "log1p", CSC.toString(), "-o", tmp.resolve("a.h5ad").toString());
        assertEquals(0, quiet.exit, quiet.err);
        assertEquals("", quiet.err, "a default run logs nothing");
        try (var made = Files.list(cache)) {
            assertTrue(made.findAny().isPresent(), "the row-major copy was made, silently");
        }

        Path fresh = tmp.resolve("fresh");
        Run verbose = scflux(
                fresh,
                "-v",
                "log1p",
                CSC.toString(),
                "-o",
                tmp.resolve("b.h5ad").toString());
        assertEquals(0, verbose.exit, verbose.err);
        List<String> lines = verbose.err.lines().toList();
        assertTrue(lines.stream().allMatch(l -> l.startsWith(INFO)), verbose.err);
        List<String> copies = lines.stream().filter(l -> l.contains(COPY)).toList();
        assertEquals(1, copies.size(), verbose.err);
        Matcher copy = Pattern.compile(Pattern.quote(INFO + CSC + ":/X " + COPY)
                        + "3000 x 2000, (\\d+) entries, [0-9.]+ MiB\\) to " + Pattern.quote(fresh.toString())
                        + "/transposed-[0-9a-f-]+\\.csr")
                .matcher(copies.get(0));
        assertTrue(copy.matches(), copies.get(0));
        assertEquals(
                1,
                lines.stream()
                        .filter(l -> l.startsWith(INFO + "no usable CUDA device (")
                                || l.startsWith(INFO + "computing on CUDA device 0"))
                        .count(),
                "the device, said once: " + verbose.err);
    }

    @Test
    void veryVerboseAddsDetailsNamingTheirLogger() throws Exception {
        Path cache = tmp.resolve("cache");
        assertEquals(
                0,
                scflux(
                                cache,
                                "log1p",
                                CSC.toString(),
                                "-o",
                                tmp.resolve("a.h5ad").toString())
                        .exit);
        Run again = scflux(
                cache,
                "-vv",
                "log1p",
                CSC.toString(),
                "-o",
                tmp.resolve("b.h5ad").toString());
        assertEquals(0, again.exit, again.err);
        assertTrue(
                again.err
                        .lines()
                        .anyMatch(l -> l.startsWith("scflux: DEBUG TransposedStore - " + CSC
                                + ":/X is stored by columns; reusing its row-major copy " + cache)),
                again.err);
        assertFalse(again.err.contains(COPY), "the copy is not made again: " + again.err);
    }

    @Test
    void quietLeavesOnlyErrors() throws Exception {
        String table = tmp.resolve("out.csv").toString();
        Run warned = scflux(tmp.resolve("cache"), "log1p", CSC.toString(), "-o", table);
        assertEquals(
                "scflux: warning: -o " + table + " names a .csv file, but scflux writes an .h5ad (HDF5) there\n",
                warned.err);
        Run quiet = scflux(tmp.resolve("fresh"), "-q", "log1p", CSC.toString(), "-o", table);
        assertEquals(0, quiet.exit, quiet.err);
        assertEquals("", quiet.err);
    }

    /** slf4j-simple's settings: scflux's loggers as -v and -q say, the libraries' at warn (error with -q). */
    @Test
    void levels() {
        String scflux = "org.slf4j.simpleLogger.log.io.scflux";
        String others = "org.slf4j.simpleLogger.defaultLogLevel";
        for (Object[] c : new Object[][] {
            {-1, false, "error", "error"},
            {0, false, "warn", "warn"},
            {1, false, "info", "warn"},
            {2, false, "debug", "warn"},
            {0, true, "info", "warn"},
            {-1, true, "error", "error"},
            {2, true, "debug", "warn"}
        }) {
            Map<String, String> p = Logging.properties((int) c[0], (boolean) c[1]);
            assertEquals(c[2], p.get(scflux), "scflux's level at " + c[0] + (c[1] + " serving"));
            assertEquals(c[3], p.get(others), "the libraries' level at " + c[0]);
            assertEquals("System.err", p.get("org.slf4j.simpleLogger.logFile"));
        }
    }

    /**
     * {@code serve} logs each request once answered, at info without {@code -v}: method, path, status, milliseconds,
     * never the token of the query, and a job id by its first 8 digits only.
     */
    @Test
    void serveLogsEachRequestWithoutItsToken() throws Exception {
        Path data = Files.createDirectories(tmp.resolve("data"));
        Path err = tmp.resolve("serve.err");
        Process p = new ProcessBuilder(java(tmp.resolve("cache"), "serve", "--data", data.toString(), "--port", "0"))
                .redirectError(err.toFile())
                .start();
        try {
            String url =
                    new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
            Matcher m = ServeCommandTest.URL.matcher(url + "\n");
            assertTrue(m.matches(), url);
            String base = "http://127.0.0.1:" + m.group(1);
            String token = m.group(2);
            String id = "0123456789abcdef0123456789abcdef";
            HttpClient client = HttpClient.newHttpClient();
            HttpResponse<String> unknown = client.send(
                    HttpRequest.newBuilder(URI.create(base + "/jobs/" + id + "/events?token=" + token))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(404, unknown.statusCode());
            HttpResponse<String> jobs = client.send(
                    HttpRequest.newBuilder(URI.create(base + "/jobs"))
                            .header("Authorization", "Bearer " + token)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, jobs.statusCode());

            List<String> requests = new ArrayList<>();
            for (long deadline = System.nanoTime() + ServeCommandTest.PATIENCE.toNanos();
                    requests.size() < 2 && System.nanoTime() < deadline;
                    Thread.sleep(20)) {
                requests = Files.readAllLines(err).stream()
                        .filter(l -> l.contains(" GET "))
                        .toList();
            }
            assertEquals(2, requests.size(), Files.readString(err));
            assertTrue(
                    requests.get(0).matches("scflux: INFO GET /jobs/01234567\\.\\.\\./events 404 \\d+ ms"),
                    requests.get(0));
            assertTrue(requests.get(1).matches("scflux: INFO GET /jobs 200 \\d+ ms"), requests.get(1));
            assertFalse(Files.readString(err).contains(token), "the token is never logged");
        } finally {
            p.destroy();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private record Run(int exit, String err) {}

    /** scflux with {@code args} in a child JVM whose row-major copies go to {@code cache}; its exit and stderr. */
    private static Run scflux(Path cache, String... args) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(java(cache, args))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("timed out: scflux " + String.join(" ", args));
        }
        return new Run(p.exitValue(), err);
    }

    private static List<String> java(Path cache, String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-Dscflux.cache.dir=" + cache,
                "-cp",
                System.getProperty("java.class.path"),
                Scflux.class.getName()));
        command.addAll(List.of(args));
        return command;
    }
}
