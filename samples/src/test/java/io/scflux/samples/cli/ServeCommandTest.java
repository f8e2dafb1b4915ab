/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http.HttpHeaderNames;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.netty.http.client.HttpClient;

/**
 * {@code scflux serve} as the command line runs it, in a thread of the test: its first line is the URL with the
 * token, given with {@code --token} or random, and the server it started takes that token and only that one.
 */
class ServeCommandTest {

    static final Pattern URL = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/\\?token=([A-Za-z0-9._~-]+)\n");
    static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    Path data;

    @Test
    void theFirstLineIsTheUrlWithTheGivenToken() throws Exception {
        String token = "given-token_0123456789";
        Matcher url = serve("--token", token);
        assertEquals(token, url.group(2));
    }

    @Test
    void withoutATokenOneOf256RandomBitsIsMade() throws Exception {
        Matcher url = serve();
        assertTrue(url.group(2).matches("[A-Za-z0-9_-]{43}"), url.group(2));
        assertFalse(url.group(2).equals(serve().group(2)), "another server, another token");
    }

    @Test
    void aShortOrOddTokenIsAUsageError() {
        for (String token : new String[] {"short", "sixteen chars ok", "a/b/c/d/e/f/g/h/i/j"}) {
            Cli c = Cli.run("serve", "--data", data.toString(), "--port", "0", "--token", token);
            assertEquals(2, c.exitCode(), token);
            assertTrue(c.err().contains("a token must have at least 16 characters"), c.err());
        }
    }

    /**
     * Runs serve with {@code options} until its first line, checks that its server answers a request with the
     * printed token and refuses one without, then stops it (its server with it); gives the first line's match of
     * {@link #URL}.
     */
    private Matcher serve(String... options) throws Exception {
        String[] args = new String[options.length + 5];
        System.arraycopy(new String[] {"serve", "--data", data.toString(), "--port", "0"}, 0, args, 0, 5);
        System.arraycopy(options, 0, args, 5, options.length);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Thread serving = new Thread(() -> {
            var cl = Scflux.commandLine();
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            cl.execute(args);
        });
        serving.start();
        Matcher url;
        HttpClient client;
        try {
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            while (!out.toString().contains("\n") && serving.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            String first = out.toString().lines().findFirst().orElse("") + "\n";
            url = URL.matcher(first);
            assertTrue(url.matches(), first + err);
            client = HttpClient.newConnection().baseUrl("http://127.0.0.1:" + url.group(1));
            assertEquals(401, status(client));
            assertEquals(
                    200, status(client.headers(h -> h.set(HttpHeaderNames.AUTHORIZATION, "Bearer " + url.group(2)))));
        } finally {
            serving.interrupt();
            serving.join(PATIENCE.toMillis());
        }
        assertFalse(serving.isAlive(), "serve ends when its thread is interrupted");
        HttpClient stopped = client;
        assertThrows(RuntimeException.class, () -> status(stopped), "and its server with it");
        return url;
    }

    private static int status(HttpClient client) {
        return client.get()
                .uri("/metrics")
                .response()
                .map(res -> res.status().code())
                .block(PATIENCE);
    }
}
