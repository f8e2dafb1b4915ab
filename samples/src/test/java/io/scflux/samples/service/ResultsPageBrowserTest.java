/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.scflux.core.Streaming;
import io.scflux.core.cache.BlockCache;
import io.scflux.io.test.TestFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;

/**
 * The results page in a real browser: the service on a random loopback port runs qc, normalize, log1p, hvg and pca
 * on the fixture, then headless Chromium loads the job's page, the token in its address, and dumps its DOM after the
 * page's script ran; the images, requested without the token, must pass on the cookie that address set. Every
 * plot image must have loaded with a width ({@code data-natural-width}, written by the script from the image's
 * {@code naturalWidth}), the PCA coloured by the first categorical obs column, and the status line left hidden. Skips, saying why, where no Chromium is installed ({@code .ci/run} installs Debian's).
 */
@Tag("browser")
class ResultsPageBrowserTest {

    static final Duration PATIENCE = Duration.ofSeconds(60);
    static final List<String> BROWSERS =
            List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome");
    static final Pattern IMAGE = Pattern.compile("<img class=\"plot\" id=\"plot-(\\w+)\"[^>]*>");
    static final Pattern WIDTH = Pattern.compile("data-natural-width=\"(\\d+)\"");

    @TempDir
    Path root;

    Service service;

    @AfterEach
    void stop() {
        if (service != null) {
            service.dispose();
        }
    }

    @Test
    void everyPlotOfTheResultsPageRendersInChromium() throws Exception {
        Path browser = BROWSERS.stream()
                .map(Path::of)
                .filter(Files::isExecutable)
                .findFirst()
                .orElse(null);
        if (browser == null) {
            String reason = "no Chromium at " + BROWSERS + " (Debian: apt-get install chromium)";
            System.out.println("ResultsPageBrowserTest skipped: " + reason);
            Assumptions.abort(reason);
        }
        Path data = Files.createDirectory(root.resolve("data"));
        Files.copy(TestFixtures.path(ServiceTest.INPUT), data.resolve(ServiceTest.INPUT));
        service = Service.start(
                data,
                ServiceOptions.defaults().withMaxJobs(1).withKeepJobs(10),
                Schedulers.boundedElastic(),
                Streaming.DEFAULT,
                BlockCache.ofMegabytes(64));
        String base = "http://127.0.0.1:" + service.port();
        HttpClient client = HttpClient.create()
                .baseUrl(base)
                .headers(h -> h.set(HttpHeaderNames.AUTHORIZATION, "Bearer " + service.token()));
        String id = submit(client);
        String page = awaitPage(client, id);

        // the token once in the page's address, as serve's URL has it: its cookie takes the images through
        String dom = dumpDom(browser, base + page + "?token=" + service.token());
        Matcher images = IMAGE.matcher(dom);
        List<String> loaded = new ArrayList<>();
        while (images.find()) {
            Matcher width = WIDTH.matcher(images.group());
            assertTrue(width.find(), "the page's script saw " + images.group() + " load");
            assertTrue(Integer.parseInt(width.group(1)) > 0, "the image has a width: " + images.group());
            loaded.add(images.group(1));
        }
        assertEquals(List.of("qc", "hvg", "pca"), loaded, dom);
        assertTrue(
                dom.contains("src=\"/jobs/" + id + "/plots/pca.png?color=sample\""),
                "coloured by the first categorical obs column: " + dom);
        assertTrue(
                Pattern.compile("<p id=\"status\" data-state=\"loaded\" class=\"missing\" hidden(=\"\")?></p>")
                        .matcher(dom)
                        .find(),
                "nothing but the plots to read once they loaded: " + dom);
    }

    private static String submit(HttpClient client) throws IOException {
        String body = "{\"input\": \"" + ServiceTest.INPUT + "\", \"steps\": [\"qc\", \"normalize\", \"log1p\", "
                + "\"hvg\", \"pca\"], \"params\": {\"n_comps\": 10}}";
        String reply = client.headers(h -> h.set("Content-Type", "application/json"))
                .post()
                .uri("/jobs")
                .send(ByteBufFlux.fromString(Mono.just(body)))
                .responseContent()
                .aggregate()
                .asString()
                .block(PATIENCE);
        return new ObjectMapper().readTree(reply).get("id").asText();
    }

    /** The page named by the job's {@code done} event, read from the events stream. */
    private static String awaitPage(HttpClient client, String id) throws IOException {
        String events = client.get()
                .uri("/jobs/" + id + "/events")
                .responseContent()
                .aggregate()
                .asString()
                .block(PATIENCE);
        String last = events.substring(events.lastIndexOf("event: "));
        assertTrue(last.startsWith("event: done\n"), events);
        JsonNode done = new ObjectMapper().readTree(last.substring(last.indexOf("data: ") + "data: ".length()));
        return done.get("page").asText();
    }

    /** Chromium's DOM of {@code url} once the page's loads and scripts are done (a virtual time budget). */
    private String dumpDom(Path browser, String url) throws IOException, InterruptedException {
        Path out = root.resolve("dom.html");
        Path err = root.resolve("chromium.log");
        Process chromium = new ProcessBuilder(Stream.of(
                                browser.toString(),
                                "--headless",
                                "--no-sandbox",
                                "--disable-gpu",
                                "--disable-background-networking",
                                "--no-first-run",
                                "--user-data-dir=" + Files.createDirectory(root.resolve("profile")),
                                "--virtual-time-budget=15000",
                                "--dump-dom",
                                url)
                        .toList())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!chromium.waitFor(PATIENCE.toSeconds() * 2, TimeUnit.SECONDS)) {
            chromium.destroyForcibly();
            throw new AssertionError("Chromium did not finish: " + Files.readString(err));
        }
        assertEquals(0, chromium.exitValue(), Files.readString(err));
        return Files.readString(out, StandardCharsets.UTF_8);
    }
}
