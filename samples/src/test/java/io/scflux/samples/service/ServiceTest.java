/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.scflux.core.PlanTarget;
import io.scflux.core.Settings;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.cache.BlockCache;
import io.scflux.io.H5ad;
import io.scflux.io.WriteOptions;
import io.scflux.io.test.TestFixtures;
import io.scflux.ops.Pp;
import io.scflux.ops.scale.ScaleOptions;
import io.scflux.samples.test.Images;
import io.scflux.samples.test.SmallTmpfs;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.HttpResources;
import reactor.netty.http.client.HttpClient;
import reactor.test.StepVerifier;

/**
 * {@code scflux serve} in-process on a random loopback port, driven by Reactor Netty's client: jobs and their events,
 * 400 problem documents, cancellation, queueing, the download and obs as NDJSON. BlockHound is installed, so a
 * blocking call on an event-loop thread fails the request and the test. Expected values come from the fixture's
 * {@code synth-3k-b.expected.tsv} (anndata's reading of it): 1000 cells, the first barcodes and sample codes.
 */
@Tag("slow")
class ServiceTest {

    static final Duration PATIENCE = Duration.ofSeconds(30);
    static final ObjectMapper JSON = new ObjectMapper();
    static final String INPUT = "synth-3k-b.h5ad";
    static final int CELLS = 1000;

    @TempDir
    Path root;

    Path data;
    Service service;
    private final CountDownLatch hold = new CountDownLatch(1);
    private ExecutorService held;
    HttpClient client;
    String base;
    /** The token of the services {@link #start} starts (null: a random one). */
    String token;

    @BeforeAll
    static void watchForBlockingCalls() {
        BlockHound.install();
    }

    @BeforeEach
    void copyFixture() throws IOException {
        data = Files.createDirectory(root.resolve("data"));
        Files.copy(TestFixtures.path(INPUT), data.resolve(INPUT));
        Files.copy(TestFixtures.path(INPUT), root.resolve("outside.h5ad"));
    }

    @AfterEach
    void stop() {
        if (service != null) {
            service.dispose();
        }
        if (held != null) {
            hold.countDown();
            held.shutdown();
        }
    }

    /**
     * A service of one job at a time on a one-thread scheduler whose thread waits for {@link #hold}: jobs stay at
     * 'started' until the test counts it down.
     */
    void startHeld() {
        held = Executors.newSingleThreadExecutor();
        held.submit(() -> {
            hold.await();
            return null;
        });
        start(1, Schedulers.fromExecutorService(held));
    }

    void start(int maxJobs, Scheduler work) {
        start(maxJobs, 100, work);
    }

    void start(int maxJobs, int keepJobs, Scheduler work) {
        start(data, maxJobs, keepJobs, work);
    }

    void start(Path folder, int maxJobs, int keepJobs, Scheduler work) {
        start(
                folder,
                ServiceOptions.defaults()
                        .withMaxJobs(maxJobs)
                        .withKeepJobs(keepJobs)
                        .withToken(token),
                work);
    }

    /**
     * Starts the service and a client of it that sends its token and opens a connection per request: Reactor Netty
     * 1.3.7's server stalls a keep-alive connection now and then when a request arrives before the previous one's
     * operations have ended (reactor/reactor-netty#4361, fixed after 1.3.7), which made a request of these tests wait
     * for ever about once in a thousand.
     */
    void start(Path folder, ServiceOptions options, Scheduler work) {
        start(folder, options, work, Streaming.DEFAULT);
    }

    void start(Path folder, ServiceOptions options, Scheduler work, Streaming streaming) {
        service = Service.start(folder, options, work, streaming, BlockCache.ofMegabytes(64));
        base = "http://127.0.0.1:" + service.port();
        client = HttpClient.newConnection()
                .baseUrl(base)
                .headers(h -> h.set(HttpHeaderNames.AUTHORIZATION, "Bearer " + service.token()));
    }

    /**
     * A step that reads X twice (seurat_v3: means and variances, then clipped sums) has a stage per pass, and the
     * progress under each stage only goes forward, to every block of the pass's plan.
     */
    @Test
    void eachPassIsAStageOfItsOwnWhoseProgressNeverGoesBack() throws IOException {
        start(
                data,
                ServiceOptions.defaults(),
                Schedulers.boundedElastic(),
                Streaming.DEFAULT.withTarget(PlanTarget.ofChunkNnz(20_000)));
        Reply accepted = post("{\"input\": \"" + INPUT + "\", \"steps\": [\"qc\", {\"step\": \"hvg\", \"params\": "
                        + "{\"flavor\": \"seurat_v3\"}}]}")
                .block(PATIENCE);
        assertEquals(202, accepted.status, accepted.body);
        String id = JSON.readTree(accepted.body).get("id").asText();

        List<Event> events = events(id, "")
                .takeUntil(e -> e.name.equals("done") || e.name.equals("failed"))
                .collectList()
                .block(PATIENCE);
        assertEquals("done", events.get(events.size() - 1).name, events.toString());
        List<String> stages = new ArrayList<>();
        Map<String, JsonNode> lastProgress = new HashMap<>();
        for (Event e : events) {
            if (e.name.equals("stage")) {
                stages.add(e.data.get("stage").asText());
            } else if (e.name.equals("progress")) {
                String stage = e.data.get("stage").asText();
                assertEquals(stages.get(stages.size() - 1), stage, "a pass's progress follows its stage: " + events);
                JsonNode before = lastProgress.put(stage, e.data);
                if (before != null) {
                    assertTrue(
                            e.data.get("blocks").asInt() > before.get("blocks").asInt()
                                    && e.data.get("rows").asLong()
                                            > before.get("rows").asLong(),
                            before + " then " + e.data);
                }
            }
        }
        assertEquals(List.of("qc", "hvg", "hvg (pass 2)", "write"), stages);
        assertEquals(Set.copyOf(stages), lastProgress.keySet(), "every stage is a pass over X");
        lastProgress.forEach((stage, last) -> {
            assertTrue(last.get("totalBlocks").asInt() > 1, stage + " reads several blocks: " + last);
            assertEquals(last.get("totalBlocks").asInt(), last.get("blocks").asInt(), stage + " read every block");
            assertEquals(CELLS, last.get("rows").asLong(), stage + " read every row");
        });
    }

    @Test
    void blockHoundWatchesTheServersEventLoop() {
        start(2, Schedulers.boundedElastic());
        ExecutionException e = assertThrows(
                ExecutionException.class,
                () -> HttpResources.get()
                        .onServer(true)
                        .next()
                        .submit(() -> {
                            Thread.sleep(1);
                            return null;
                        })
                        .get());
        assertInstanceOf(BlockingOperationError.class, e.getCause());
    }

    @Test
    void jobReportsEachStageInOrderAndEndsWithItsOutput() throws IOException {
        start(2, Schedulers.boundedElastic());
        Reply accepted = post("{\"input\": \"" + INPUT + "\", \"steps\": [\"qc\", \"normalize\", \"log1p\"],"
                        + " \"params\": {\"target_sum\": 10000}}")
                .block(PATIENCE);
        assertEquals(202, accepted.status);
        String id = JSON.readTree(accepted.body).get("id").asText();

        List<JsonNode> progress = new ArrayList<>();
        List<String> names = new ArrayList<>();
        StepVerifier.create(events(id, ""))
                .recordWith(ArrayList::new)
                .thenConsumeWhile(e -> !e.name.equals("done") && !e.name.equals("failed"), e -> {
                    if (e.name.equals("progress")) {
                        progress.add(e.data);
                    }
                    String label = e.name.equals("stage")
                            ? "stage:" + e.data.get("stage").asText()
                            : e.name;
                    if (names.isEmpty() || !names.get(names.size() - 1).equals(label)) {
                        names.add(label);
                    }
                })
                .assertNext(done -> assertEquals("done", done.name, done.data.toString()))
                .expectComplete()
                .verify(PATIENCE);
        assertEquals(
                List.of(
                        "queued",
                        "started",
                        "stage:qc",
                        "progress",
                        "stage:normalize",
                        "progress",
                        "stage:log1p",
                        "stage:write",
                        "progress"),
                names);
        for (String stage : List.of("qc", "normalize", "write")) {
            JsonNode last = progress.stream()
                    .filter(p -> p.get("stage").asText().equals(stage))
                    .reduce((a, b) -> b)
                    .orElseThrow();
            assertEquals(CELLS, last.get("rows").asLong(), stage + " read every row");
            assertEquals(last.get("totalBlocks").asInt(), last.get("blocks").asInt(), stage + " read every block");
        }

        String output = "synth-3k-b-" + id + ".h5ad";
        StepVerifier.create(events(id, "")
                        .filter(e -> e.name.equals("done"))
                        .map(e -> e.data.get("output").asText()))
                .expectNext(output)
                .expectComplete()
                .verify(PATIENCE);
        AnnData written = H5ad.read(data.resolve(output));
        assertEquals(CELLS, written.nObs());
        assertTrue(written.obs().has("total_counts"), "qc added its columns");

        byte[] downloaded = client.get()
                .uri("/jobs/" + id + "/result")
                .responseSingle((res, body) -> {
                    assertEquals(200, res.status().code());
                    return body.asByteArray();
                })
                .block(PATIENCE);
        assertArrayEquals(Files.readAllBytes(data.resolve(output)), downloaded);
    }

    /**
     * The steps and their params come from the step catalog: scale (which the service once lacked) and qc's qc_vars
     * run, a column an earlier step adds (hvg's highly_variable) may be named by a later one, and {@code GET /steps}
     * lists what a job may name.
     */
    @Test
    void everyCatalogStepRunsAndAnEarlierStepsColumnMayBeNamed() throws IOException {
        start(2, Schedulers.boundedElastic());
        JsonNode done = awaitEnd(submit("[\"qc\", \"normalize\", \"log1p\", \"hvg\", {\"step\": \"pca\", \"params\": "
                + "{\"mask_var\": \"highly_variable\", \"n_comps\": 5}}, {\"step\": \"qc\", \"params\": {\"qc_vars\": "
                + "[\"highly_variable\"], \"percent_top\": []}}, \"scale\"]"));
        assertEquals("done", done.get("event").asText(), done.toString());
        AnnData out = H5ad.read(data.resolve(done.get("output").asText()));
        assertTrue(
                out.var().has("std") && out.obsm().containsKey("X_pca"),
                out.var().columns().keySet().toString());
        assertTrue(
                out.obs().has("pct_counts_highly_variable"),
                out.obs().columns().keySet().toString());
        JsonNode steps = json(new String(fetch("/steps").body, StandardCharsets.UTF_8));
        List<String> names = new ArrayList<>();
        steps.get("steps").forEach(st -> names.add(st.get("service").asText()));
        assertEquals(
                List.of(
                        "concat",
                        "qc",
                        "filter_cells",
                        "filter_genes",
                        "normalize",
                        "log1p",
                        "hvg",
                        "scale",
                        "pca",
                        "neighbors",
                        "umap",
                        "leiden",
                        "rank_genes_groups",
                        "pseudobulk"),
                names);
    }

    /**
     * A job of two inputs starts with concat, which the service offers as the command line does: the cells of both, in
     * order, named with their input's key and labelled by it, then qc on the one container; every cell's total is its
     * row's sum in its input, counted here from the input's counts.
     */
    @Test
    void concatCombinesAJobsInputsAndTheStepsAfterItRunOnTheResult() throws IOException {
        Files.copy(data.resolve(INPUT), data.resolve("second.h5ad"));
        start(2, Schedulers.boundedElastic());
        Reply reply = post("{\"inputs\": [\"" + INPUT + "\", \"second.h5ad\"], \"steps\": [{\"step\": \"concat\", "
                        + "\"params\": {\"keys\": [\"x\", \"y\"], \"label\": \"batch\", \"index_unique\": \"-\"}}, "
                        + "\"qc\"]}")
                .block(PATIENCE);
        assertEquals(202, reply.status, reply.body);
        JsonNode done = awaitEnd(json(reply.body).get("id").asText());
        assertEquals("done", done.get("event").asText(), done.toString());
        AnnData out = H5ad.read(data.resolve(done.get("output").asText()));
        AnnData in = H5ad.read(data.resolve(INPUT));
        int n = in.nObs();
        assertEquals(2 * n, out.nObs());
        assertEquals(in.nVars(), out.nVars());
        assertEquals(in.obs().index()[0] + "-x", out.obs().index()[0]);
        assertEquals(in.obs().index()[0] + "-y", out.obs().index()[n]);
        CategoricalColumn batch = (CategoricalColumn) out.obs().column("batch");
        assertArrayEquals(new String[] {"x", "y"}, batch.categories().strings());
        assertEquals(0, batch.codes()[n - 1]);
        assertEquals(1, batch.codes()[n]);
        CsrMatrix x = CsrMatrix.collect(in.x().blocks(), in.nVars()).block();
        ArrayColumn total = (ArrayColumn) out.obs().column("total_counts");
        for (int i = 0; i < n; i++) {
            double sum = 0;
            for (long k = x.indptr(i); k < x.indptr(i + 1); k++) {
                sum += x.value(k);
            }
            assertEquals(sum, total.getDouble(i), 1e-3 * Math.max(1, sum), "cell " + i);
            assertEquals(sum, total.getDouble(n + i), 1e-3 * Math.max(1, sum), "cell " + (n + i));
        }
        JsonNode job =
                json(new String(fetch("/jobs/" + json(reply.body).get("id").asText()).body, StandardCharsets.UTF_8));
        assertEquals(
                List.of("concat", "qc"),
                List.of(
                        job.get("steps").get(0).asText(),
                        job.get("steps").get(1).asText()));
        assertEquals("second.h5ad", job.get("inputs").get(1).asText());
    }

    /**
     * Filters in a job, each with its own criterion as a step object: the output holds the cells and genes that pass
     * both, counted here from the input's counts, with scanpy's columns.
     */
    @Test
    void filterStepsTakeTheirOwnCriterion() throws IOException {
        start(2, Schedulers.boundedElastic());
        String id = submit("[{\"step\": \"filter_cells\", \"params\": {\"min_genes\": 390}}, "
                + "{\"step\": \"filter_genes\", \"params\": {\"min_counts\": 150}}, \"qc\"]");
        JsonNode done = awaitEnd(id);
        assertEquals("done", done.get("event").asText(), done.toString());
        AnnData out = H5ad.read(data.resolve(done.get("output").asText()));
        AnnData in = H5ad.read(data.resolve(INPUT));
        CsrMatrix x = CsrMatrix.collect(in.x().blocks(), in.nVars()).block();
        boolean[] cell = new boolean[in.nObs()];
        double[] geneCounts = new double[in.nVars()];
        for (int i = 0; i < cell.length; i++) {
            cell[i] = x.indptr(i + 1) - x.indptr(i) >= 390; // synth's counts are positive
            for (long k = x.indptr(i); k < x.indptr(i + 1) && cell[i]; k++) {
                geneCounts[x.index(k)] += x.value(k);
            }
        }
        long cells = IntStream.range(0, cell.length).filter(i -> cell[i]).count();
        long genes = Arrays.stream(geneCounts).filter(c -> c >= 150).count();
        assertTrue(cells > 0 && cells < in.nObs() && genes > 0 && genes < in.nVars(), cells + " x " + genes);
        assertEquals(cells, out.nObs());
        assertEquals(genes, out.nVars());
        assertTrue(out.obs().has("n_genes")
                && out.var().has("n_counts")
                && out.obs().has("total_counts"));
    }

    /**
     * A job with every plotted step: its done event links the results page, the page references the four images, each
     * image is a PNG that decodes to a real plot, and the metrics count what the job read and the job itself.
     */
    /** A job that goes on to the graph steps shows its UMAP coloured by its clusters; one that does not, no UMAP. */
    @Test
    void aJobWithTheGraphStepsShowsItsMap() throws IOException {
        start(2, Schedulers.boundedElastic());
        String id = submit("[\"qc\", \"normalize\", \"log1p\", \"hvg\", \"pca\", \"neighbors\", \"umap\", "
                + "\"leiden\"], \"params\": {\"n_comps\": 10, \"maxiter\": 20}");
        JsonNode done = awaitEnd(id);
        assertEquals("done", done.get("event").asText(), done.toString());
        String html = new String(fetch(done.get("page").asText()).body, StandardCharsets.UTF_8);
        assertTrue(html.contains("src=\"/jobs/" + id + "/plots/umap.png?color=leiden\""), html);
        Fetched png = fetch("/jobs/" + id + "/plots/umap.png?color=leiden");
        assertEquals(200, png.status);
        assertTrue(png.contentType.startsWith("image/png"), png.contentType);
    }

    @Test
    void finishedJobHasPlotsAResultsPageAndMetrics() throws IOException {
        start(2, Schedulers.boundedElastic());
        String id = submit("[\"qc\", \"normalize\", \"log1p\", \"hvg\", \"pca\", \"rank_genes_groups\"], "
                + "\"params\": {\"n_comps\": 10, \"groupby\": \"cell_type\", \"n_genes\": 30}");
        JsonNode done = awaitEnd(id);
        assertEquals("done", done.get("event").asText(), done.toString());
        assertEquals("/jobs/" + id + "/page", done.get("page").asText());

        Fetched page = fetch(done.get("page").asText() + "?color=sample");
        assertEquals(200, page.status);
        assertTrue(page.contentType.startsWith("text/html"), page.contentType);
        String html = new String(page.body, StandardCharsets.UTF_8);
        for (String src : List.of("qc.png\"", "hvg.png\"", "pca.png?color=sample\"", "rank-genes-groups.png\"")) {
            assertTrue(html.contains("src=\"/jobs/" + id + "/plots/" + src), src + " in " + html);
        }
        assertTrue(html.contains("<option selected>sample</option>"), html);
        assertFalse(html.contains("Not drawn"), html);
        String byDefault = new String(fetch(done.get("page").asText()).body, StandardCharsets.UTF_8);
        assertTrue(
                byDefault.contains("src=\"/jobs/" + id + "/plots/pca.png?color=sample\""),
                "the first categorical obs column colours the PCA by default: " + byDefault);
        assertTrue(byDefault.contains("<option selected>sample</option>"), byDefault);
        String none = new String(fetch(done.get("page").asText() + "?color=").body, StandardCharsets.UTF_8);
        assertTrue(none.contains("src=\"/jobs/" + id + "/plots/pca.png\""), none);
        assertTrue(none.contains("<option value=\"\" selected>none</option>"), none);

        for (String uri : List.of(
                "qc.png",
                "hvg.png",
                "pca.png",
                "pca.png?color=sample",
                "pca.png?color=total_counts",
                "rank-genes-groups.png")) {
            Fetched png = fetch("/jobs/" + id + "/plots/" + uri);
            assertEquals(200, png.status, uri + ": " + new String(png.body, StandardCharsets.UTF_8));
            assertEquals("image/png", png.contentType);
            BufferedImage image = Images.decode(png.body);
            assertTrue(image.getWidth() >= 400 && image.getHeight() >= 300, uri + " is a real plot");
            assertTrue(Images.colours(image) > 1, uri + " has more than one colour");
        }

        Map<String, Double> metrics = metrics();
        assertTrue(sample(metrics, "scflux_blocks_read_total") > 0, metrics.toString());
        assertTrue(sample(metrics, "scflux_read_bytes_total") > 0, metrics.toString());
        assertTrue(sample(metrics, "scflux_cache_hits_total") > 0, "hvg and pca read X again: " + metrics);
        assertEquals(
                sample(metrics, "scflux_cache_hits_total") + sample(metrics, "scflux_cache_misses_total"),
                sample(metrics, "scflux_blocks_processed_total"),
                "every block a step took went through the cache");
        assertEquals(1.0, sample(metrics, "scflux_job_duration_seconds_count{outcome=\"done\"}"));
    }

    /** A job of qc alone: the page shows the QC plot and says what the others need; their images are 409s. */
    @Test
    void resultsPageSaysWhatAJobLacks() throws IOException {
        start(2, Schedulers.boundedElastic());
        String id = submit("[\"qc\"]");
        assertEquals("done", awaitEnd(id).get("event").asText());
        String html = new String(fetch("/jobs/" + id + "/page").body, StandardCharsets.UTF_8);
        assertTrue(html.contains("src=\"/jobs/" + id + "/plots/qc.png\""), html);
        assertFalse(html.contains("/plots/hvg.png\""), html);
        assertTrue(
                html.contains("has no var column means, highly_variable. Add the hvg step to the job (steps: qc)"),
                html);
        assertTrue(html.contains("has no obsm X_pca. Add the pca step to the job (steps: qc)"), html);
        assertTrue(
                html.contains("has no uns rank_genes_groups. Add the rank_genes_groups step to the job (steps: qc)"),
                html);

        Fetched hvg = fetch("/jobs/" + id + "/plots/hvg.png");
        assertEquals(409, hvg.status);
        JsonNode problem = JSON.readTree(hvg.body);
        assertEquals("plot", problem.get("field").asText());
        assertTrue(
                problem.get("detail")
                        .asText()
                        .contains("run scflux hvg on it first (in a service job: the hvg " + "step)"),
                problem.toString());
        assertEquals(404, fetch("/jobs/" + id + "/plots/tsne.png").status);
        assertEquals(400, fetch("/jobs/" + id + "/plots/qc.png?color=nope").status);
    }

    /**
     * With two ended jobs kept, the third job's end forgets the first: its routes answer 404 while its output stays in
     * the data folder; the second and third are still there.
     */
    @Test
    void onlyTheLastKeepJobsEndedJobsAreRemembered() throws IOException {
        start(1, 2, Schedulers.boundedElastic());
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String id = submit("[\"qc\"]");
            assertEquals("done", awaitEnd(id).get("event").asText());
            ids.add(id);
        }
        String first = ids.get(0);
        for (String uri : List.of(
                "/jobs/" + first + "/events",
                "/jobs/" + first + "/result",
                "/jobs/" + first + "/page",
                "/jobs/" + first + "/plots/qc.png")) {
            assertEquals(404, status(uri), uri);
        }
        assertTrue(Files.exists(data.resolve("synth-3k-b-" + first + ".h5ad")), "a forgotten job's output stays");
        for (String kept : ids.subList(1, 3)) {
            assertEquals(200, status("/jobs/" + kept + "/result"), kept);
        }
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"input\": \"absent.h5ad\", \"steps\": [\"qc\"]}                                   | input",
                "{\"input\": \"../outside.h5ad\", \"steps\": [\"qc\"]}                               | input",
                "{\"input\": \"/etc/passwd\", \"steps\": [\"qc\"]}                                   | input",
                "{\"steps\": [\"qc\"]}                                                               | input",
                "{\"input\": \"synth-3k-b.h5ad\", \"steps\": [\"qc\", \"tsne\"]}                     | steps[1]",
                "{\"input\": \"synth-3k-b.h5ad\", \"steps\": []}                                     | steps",
                "{\"input\": \"synth-3k-b.h5ad\", \"steps\": [\"pca\"], \"params\": {\"n_comps\": 0}} | params.n_comps",
                "{\"input\": \"synth-3k-b.h5ad\", \"steps\": [\"hvg\"], \"params\": {\"flavor\": \"x\"}} | params.flavor",
                "{\"input\": \"synth-3k-b.h5ad\", \"steps\": [\"normalize\"], \"params\": {\"target_sum\": -1}} "
                        + "| params.target_sum",
                "{\"input\": \"synth-3k-b.h5ad\", \"steps\": [\"pseudobulk\"], \"params\": {\"sample_col\": \"sample\"}} "
                        + "| params.groups_col",
                "{\"input\": \"synth-3k-b.h5ad\", \"steps\": [\"qc\"], \"params\": {\"n_comps\": 5}}  | params.n_comps",
                "not json                                                                            | body",
                "{\"input\": \"synth-3k-b.h5ad\", \"steps\": [\"filter_cells\"]}                           | params",
                "{\"input\": \"synth-3k-b.h5ad\", \"steps\": [{\"step\": \"filter_cells\", \"params\": "
                        + "{\"min_genes\": 5, \"max_genes\": 9}}]}                           | steps[0].params.max_genes",
                "{\"input\": \"synth-3k-b.h5ad\", \"steps\": [{\"step\": \"filter_genes\", \"params\": "
                        + "{\"min_cells\": 5, \"n_comps\": 3}}]}                                        | steps[0].params.n_comps",
                "{\"input\": \"synth-3k-b.h5ad\", \"steps\": [{\"params\": {}}]}                        | steps[0].step",
                "{\"input\": \"synth-3k-b.h5ad\", \"steps\": [\"rank_genes_groups\"], \"params\": {\"groupby\": "
                        + "\"nope\"}}                                                                  | params.groupby",
                "{\"input\": \"synth-3k-b.h5ad\", \"steps\": [\"qc\"], \"params\": {\"qc_vars\": [\"nope\"]}}  "
                        + "| params.qc_vars",
                "{\"input\": \"synth-3k-b.h5ad\", \"steps\": [\"hvg\", {\"step\": \"pca\", \"params\": "
                        + "{\"mask_var\": \"nope\"}}]}                                         | steps[1].params.mask_var",
                "{\"input\": \"synth-3k-b.h5ad\", \"steps\": [\"scale\"], \"params\": {\"max_value\": -1}} "
                        + "| params.max_value",
                "{\"input\": \"synth-3k-b.h5ad\", \"steps\": [\"pca\"], \"params\": {\"n_comps\": 2.5}} "
                        + "| params.n_comps",
                "{\"inputs\": [\"synth-3k-b.h5ad\", \"synth-3k-b.h5ad\"], \"steps\": [\"qc\"]}        | inputs",
                "{\"input\": \"synth-3k-b.h5ad\", \"steps\": [\"concat\"]}                           | inputs",
                "{\"inputs\": [\"synth-3k-b.h5ad\"], \"steps\": [\"concat\"]}                        | inputs",
                "{\"input\": \"synth-3k-b.h5ad\", \"inputs\": [\"synth-3k-b.h5ad\", \"synth-3k-b.h5ad\"], "
                        + "\"steps\": [\"concat\"]}                                                       | inputs",
                "{\"inputs\": [\"synth-3k-b.h5ad\", \"synth-3k-b.h5ad\"], \"steps\": [\"qc\", \"concat\"]} | steps[1]",
                "{\"inputs\": [\"synth-3k-b.h5ad\", \"absent.h5ad\"], \"steps\": [\"concat\"]}       | inputs[1]",
                "{\"inputs\": [\"synth-3k-b.h5ad\", \"synth-3k-b.h5ad\"], \"steps\": [\"concat\"], \"params\": "
                        + "{\"join\": \"left\"}}                                                           | params.join",
                "{\"inputs\": [\"synth-3k-b.h5ad\", \"synth-3k-b.h5ad\"], \"steps\": [{\"step\": \"concat\", "
                        + "\"params\": {\"keys\": [\"a\", \"a\"]}}]}                                    | steps[0].params.keys",
                "{\"inputs\": [\"synth-3k-b.h5ad\", \"synth-3k-b.h5ad\"], \"steps\": [\"concat\", \"rank_genes_groups\"], "
                        + "\"params\": {\"groupby\": \"nope\"}}                                            | params.groupby",
            })
    void badRequestIsA400ProblemNamingTheField(String body, String field) throws IOException {
        start(2, Schedulers.boundedElastic());
        Reply reply = post(body).block(PATIENCE);
        assertEquals(400, reply.status);
        assertEquals("application/problem+json", reply.contentType);
        JsonNode problem = JSON.readTree(reply.body);
        assertEquals(field, problem.get("field").asText(), reply.body);
        assertEquals(400, problem.get("status").asInt());
        assertEquals("about:blank", problem.get("type").asText());
        assertFalse(problem.get("title").asText().isEmpty());
        assertFalse(problem.get("detail").asText().isEmpty());
        try (var files = Files.list(data)) {
            assertEquals(List.of(data.resolve(INPUT)), files.toList(), "no job ran");
        }
    }

    /**
     * With one job at a time and the work scheduler held by the test, the first job starts and the second waits;
     * DELETE cancels the first, which stops at its first read and leaves no output, and the second then runs to its
     * end.
     */
    @Test
    void jobsBeyondMaxJobsWaitAndDeleteCancels() throws Exception {
        startHeld();
        String first = submit("[\"qc\"]");
        String second = submit("[\"qc\"]");
        awaitStarted(first);
        assertFalse(service.job(second).started(), "the second job waits while the first runs");

        int status = client.delete()
                .uri("/jobs/" + first)
                .responseSingle((res, body) -> Mono.just(res.status().code()))
                .block(PATIENCE);
        assertEquals(202, status);
        hold.countDown();
        StepVerifier.create(events(first, "").map(e -> e.name))
                .expectNext("queued", "started", "cancelled")
                .expectComplete()
                .verify(PATIENCE);
        StepVerifier.create(events(second, "").map(e -> e.name).filter(n -> !n.equals("progress")))
                .expectNext("queued", "started", "stage", "stage", "done")
                .expectComplete()
                .verify(PATIENCE);
        assertFalse(Files.exists(data.resolve("synth-3k-b-" + first + ".h5ad")), "a cancelled job leaves no output");
        assertTrue(Files.exists(data.resolve("synth-3k-b-" + second + ".h5ad")));
        assertEquals(409, status("/jobs/" + first + "/result"));
    }

    @Test
    void disconnectingFromTheEventsCancelsWhenAsked() throws Exception {
        startHeld();
        String id = submit("[\"qc\"]");
        StepVerifier.create(events(id, "?cancelOnDisconnect=true").map(e -> e.name))
                .expectNext("queued", "started")
                .thenCancel()
                .verify(PATIENCE);
        for (int i = 0; i < 3000 && !service.job(id).cancelRequested(); i++) {
            Thread.sleep(10); // the server sees the disconnect a moment later
        }
        assertTrue(service.job(id).cancelRequested(), "the disconnect cancelled the job");
        hold.countDown();
        try (var files = Files.list(data)) {
            assertEquals(List.of(data.resolve(INPUT)), files.toList());
        }
        StepVerifier.create(events(id, "").map(e -> e.name))
                .expectNext("queued", "started", "cancelled")
                .expectComplete()
                .verify(PATIENCE);
    }

    @Test
    void obsStreamsAsNdjsonAsTheClientReads() {
        start(2, Schedulers.boundedElastic());
        Flux<JsonNode> rows = lines(client.get()
                        .uri("/datasets/" + INPUT + "/obs?columns=sample")
                        .responseContent()
                        .asString())
                .map(ServiceTest::json);
        StepVerifier.create(rows, 3)
                .assertNext(r -> assertRow(r, "CGAATTATTCGATAGG-1", "D06"))
                .assertNext(r -> assertRow(r, "AGCACGACGTACGACC-1", "D02"))
                .assertNext(r -> assertRow(r, "GCCCGCCTTTGTACGA-1", "D02"))
                .thenCancel()
                .verify(PATIENCE);
        StepVerifier.create(rows.count())
                .expectNext((long) CELLS)
                .expectComplete()
                .verify(PATIENCE);
    }

    @Test
    void obsOfAnUnknownDatasetOrColumnIsAProblem() {
        start(2, Schedulers.boundedElastic());
        assertEquals(404, status("/datasets/absent.h5ad/obs"));
        assertEquals(400, status("/datasets/" + INPUT + "/obs?columns=sample,nope"));
    }

    /** Unknown routes and wrong methods are problem documents too, a 405 naming the methods its path takes. */
    @Test
    void unknownRouteAndWrongMethodAreProblems() throws IOException {
        start(2, Schedulers.boundedElastic());
        assertProblem(fetch("/nowhere"), 404);
        assertProblem(fetch("/jobs/x/nowhere"), 404);
        Fetched put = exchange(HttpMethod.PUT, "/jobs");
        assertProblem(put, 405);
        assertEquals("POST, GET", put.headers.get("Allow"));
        Fetched post = exchange(HttpMethod.POST, "/metrics");
        assertProblem(post, 405);
        assertEquals("GET", post.headers.get("Allow"));
        assertEquals("GET, DELETE", exchange(HttpMethod.PUT, "/jobs/x").headers.get("Allow"));
        assertProblem(fetch("/jobs/x"), 404);
    }

    /** {@code GET /jobs} lists the jobs, {@code GET /jobs/ID} gives one, and the front page shows them with links. */
    @Test
    void jobsAreListedAsJsonAndOnTheFrontPage() throws Exception {
        startHeld();
        String first = submit("[\"qc\"]");
        String second = submit("[\"qc\", \"normalize\"]");
        awaitStarted(first);
        JsonNode listed = json(new String(fetch("/jobs").body, StandardCharsets.UTF_8));
        assertEquals(2, listed.size());
        assertEquals(first, listed.get(0).get("id").asText());
        assertEquals("running", listed.get(0).get("state").asText());
        assertEquals(second, listed.get(1).get("id").asText());
        assertEquals("queued", listed.get(1).get("state").asText());
        assertEquals("[\"qc\",\"normalize\"]", listed.get(1).get("steps").toString());
        assertEquals(
                "/jobs/" + second + "/events",
                listed.get(1).get("links").get("events").asText());

        hold.countDown();
        StepVerifier.create(events(second, "").map(e -> e.name))
                .thenConsumeWhile(n -> !n.equals("done"))
                .expectNext("done")
                .expectComplete()
                .verify(PATIENCE);
        Fetched one = fetch("/jobs/" + second);
        assertEquals(200, one.status);
        assertEquals("application/json", one.contentType);
        JsonNode state = json(new String(one.body, StandardCharsets.UTF_8));
        assertEquals("done", state.get("state").asText());
        assertEquals(
                "/jobs/" + second + "/result", state.get("links").get("result").asText());
        assertEquals("/jobs/" + second + "/page", state.get("links").get("page").asText());

        String page = new String(fetch("/").body, StandardCharsets.UTF_8);
        assertTrue(
                page.contains(second.substring(0, 12))
                        && page.contains(">done<")
                        && page.contains("href=\"/jobs/" + second + "/page\""),
                page);
    }

    /**
     * A file named .h5ad that is not HDF5: its obs are a 422 problem saying so (it was an empty 500), and a job on it
     * fails saying so; both name it relative to the data folder, here served through a link to it, so that neither
     * the folder's path as given nor its real path shows.
     */
    @Test
    void aFileThatIsNotHdf5IsAProblemAndAFailedJobNamingItRelatively() throws IOException {
        start(Files.createSymbolicLink(root.resolve("served"), data), 2, 100, Schedulers.boundedElastic());
        Files.writeString(data.resolve("bad.h5ad"), "not HDF5\n".repeat(100));
        String expected = "bad.h5ad: /: not an HDF5 file or truncated: No valid HDF5 signature found";
        Fetched obs = fetch("/datasets/bad.h5ad/obs");
        assertProblem(obs, 422);
        assertEquals(expected, JSON.readTree(obs.body).get("detail").asText());

        String id = submitOn("bad.h5ad", "[\"qc\"]");
        JsonNode end = awaitEnd(id);
        assertEquals("failed", end.get("event").asText());
        assertEquals(expected, end.get("error").asText());
        String page = new String(fetch("/jobs/" + id + "/page").body, StandardCharsets.UTF_8);
        assertTrue(page.contains(expected), page);
        assertFalse(
                page.contains(root.toString())
                        || page.contains(root.toRealPath().toString()),
                page);
    }

    /**
     * A link in the data folder to a file outside it is no dataset: a job on it is refused with a 400 naming the
     * input, its obs are a 404, and nothing is read. A link to a file in a folder of the data folder is one.
     */
    @Test
    void aLinkOutOfTheDataFolderIsNotADataset() throws IOException {
        start(2, Schedulers.boundedElastic());
        Files.createSymbolicLink(data.resolve("link.h5ad"), root.resolve("outside.h5ad"));
        Reply refused = post("{\"input\": \"link.h5ad\", \"steps\": [\"qc\"]}").block(PATIENCE);
        assertEquals(400, refused.status, refused.body);
        JsonNode problem = JSON.readTree(refused.body);
        assertEquals("input", problem.get("field").asText());
        assertEquals(
                "input link.h5ad is not a dataset of the data folder: it links to a file outside it",
                problem.get("detail").asText());
        Fetched obs = fetch("/datasets/link.h5ad/obs");
        assertProblem(obs, 404);
        assertTrue(JSON.readTree(obs.body).get("detail").asText().contains("not a dataset of the data folder"));

        Path inner = Files.createDirectory(data.resolve("inner")).resolve("moved.h5ad");
        Files.move(data.resolve(INPUT), inner);
        Files.createSymbolicLink(data.resolve(INPUT), inner);
        StepVerifier.create(lines(client.get()
                                .uri("/datasets/" + INPUT + "/obs")
                                .responseContent()
                                .asString())
                        .count())
                .expectNext((long) CELLS)
                .expectComplete()
                .verify(PATIENCE);
        try (var files = Files.list(data)) {
            assertEquals(3, files.count(), "no job ran");
        }
    }

    /**
     * 200 failed jobs and 200 failed obs requests on a file that is not HDF5 leave no file descriptor open: the
     * entries of /proc/self/fd come back to those before. The client keeps no connection, each closes after its
     * response (on both sides a moment later: the count is awaited a few seconds); earlier tests' garbage is collected
     * before the first count, so that none of their descriptors closes during this one. The bad file itself is
     * counted too: jhdf leaves the channel of a file without an HDF5 signature open, so flux-io checks the signature
     * before jhdf sees the file.
     */
    @ParameterizedTest
    @CsvSource({"jobs", "obs"})
    void failedReadsOfANonHdf5FileLeaveNoDescriptorOpen(String route) throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc (Linux)");
        start(2, Schedulers.boundedElastic());
        Path bad = data.resolve("bad.h5ad");
        Files.writeString(bad, "not HDF5\n".repeat(100));
        Runnable fail = route.equals("jobs")
                ? () -> assertEquals(
                        "failed",
                        awaitEnd(submitOn("bad.h5ad", "[\"qc\"]")).get("event").asText())
                : () -> assertEquals(422, fetch("/datasets/bad.h5ad/obs").status);
        fail.run(); // the classes loaded
        System.gc();
        Map<String, Integer> before = OpenFiles.now();
        for (int i = 0; i < 200; i++) {
            fail.run();
        }
        Map<String, Integer> leaked = OpenFiles.awaitBack(before, Duration.ofSeconds(5));
        String badFile = bad.toRealPath().toString();
        System.out.printf(
                "ServiceTest: %d descriptors open before 200 failed %s, %d after (%d on bad.h5ad)%n",
                OpenFiles.total(before), route, OpenFiles.total(OpenFiles.now()), leaked.getOrDefault(badFile, 0));
        assertEquals(Map.of(), leaked, "descriptors left open by the service after 200 failed " + route);
    }

    /**
     * A job whose output cannot fit (the data folder on a small tmpfs, filled up to 2 MiB free, the output some
     * 5 MB) fails before it writes anything, saying what it needs and what is free, in the data folder named as
     * "." (not its absolute path), never that the disk is full; it leaves no temporary file and no descriptor on the
     * tmpfs. Once the space is back, the same job on the same server runs. Needs root to mount the tmpfs (as CI).
     */
    @Test
    void aJobWhoseOutputCannotFitFailsAtOnceAndTheSameRunsOnceSpaceIsBack() throws Exception {
        StringBuilder skipped = new StringBuilder();
        try (SmallTmpfs tmpfs = SmallTmpfs.mount(Files.createDirectory(root.resolve("small")), 24, skipped)) {
            Assumptions.assumeTrue(tmpfs != null, skipped.toString());
            Path small = tmpfs.path();
            Files.copy(TestFixtures.path(INPUT), small.resolve(INPUT));
            Path filler = small.resolve("filler.bin");
            fill(filler, Files.getFileStore(small).getUsableSpace() - (2L << 20));
            start(small, 2, 100, Schedulers.boundedElastic());
            String steps = "[\"qc\", \"normalize\", \"log1p\"]";
            JsonNode failed = awaitEnd(submitOn(INPUT, steps));
            System.out.println("ServiceTest: the job on a full disk ended with " + failed);
            assertEquals("failed", failed.get("event").asText(), failed.toString());
            String error = failed.get("error").asText();
            assertTrue(error.matches(".*\\.h5ad: needs about [0-9.]+ MB, [0-9.]+ MB free in \\."), error);
            assertFalse(
                    error.contains("disk is full")
                            || error.contains(small.toString())
                            || error.contains(root.toString()),
                    "a path relative to the data folder: " + error);
            try (var files = Files.list(small)) {
                assertEquals(
                        Set.of(INPUT, "filler.bin"),
                        files.map(f -> f.getFileName().toString()).collect(Collectors.toSet()),
                        "no temporary file left");
            }
            assertEquals(
                    List.of(),
                    OpenFiles.now().keySet().stream()
                            .filter(f -> f.startsWith(small.toString()))
                            .toList(),
                    "no descriptor left open on the tmpfs");
            Files.delete(filler);
            JsonNode done = awaitEnd(submitOn(INPUT, steps));
            assertEquals("done", done.get("event").asText(), done.toString());
            assertEquals(
                    CELLS, H5ad.read(small.resolve(done.get("output").asText())).nObs());
            service.dispose();
            service = null;
        }
    }

    /** Writes {@code bytes} zeros to {@code file}, for real (a sparse file would take no space). */
    private static void fill(Path file, long bytes) throws IOException {
        byte[] chunk = new byte[1 << 16];
        try (var out = Files.newOutputStream(file)) {
            for (long left = bytes; left > 0; left -= chunk.length) {
                out.write(chunk, 0, (int) Math.min(chunk.length, left));
            }
        }
    }

    /**
     * Every route needs the token, an unknown one included: none or a wrong one is a 401 problem asking for a bearer
     * token. As a bearer token it passes; in the query it passes once and sets an HttpOnly, SameSite=Strict cookie
     * for the server's port, with which the next requests pass alone.
     */
    @Test
    void everyRequestNeedsTheToken() throws IOException {
        start(2, Schedulers.boundedElastic());
        HttpClient anonymous = HttpClient.newConnection().baseUrl(base);
        for (String uri : List.of("/", "/metrics", "/datasets/" + INPUT + "/obs", "/jobs/x/result", "/nowhere")) {
            Fetched refused = exchange(anonymous, HttpMethod.GET, uri);
            assertProblem(refused, 401);
            assertEquals("Bearer realm=\"scflux\"", refused.headers.get("WWW-Authenticate"), uri);
        }
        assertProblem(
                exchange(anonymous.headers(h -> h.set("Content-Type", "application/json")), HttpMethod.POST, "/jobs"),
                401);
        String wrong = wrong(service.token());
        assertFalse(wrong.equals(service.token()), wrong);
        assertProblem(
                exchange(anonymous.headers(h -> h.set("Authorization", "Bearer " + wrong)), HttpMethod.GET, "/metrics"),
                401);
        assertProblem(exchange(anonymous, HttpMethod.GET, "/metrics?token=" + wrong), 401);
        assertEquals(
                200,
                exchange(
                                anonymous.headers(h -> h.set("Authorization", "bearer " + service.token())),
                                HttpMethod.GET,
                                "/metrics")
                        .status);

        Fetched index = exchange(anonymous, HttpMethod.GET, "/?token=" + service.token());
        assertEquals(200, index.status);
        assertTrue(new String(index.body, StandardCharsets.UTF_8)
                .contains(INPUT + " (<a href=\"/datasets/" + INPUT + "/obs\">obs</a>)"));
        String cookie = index.headers.get("Set-Cookie");
        assertTrue(cookie.startsWith("scflux-token-" + service.port() + "=" + service.token() + ";"), cookie);
        assertTrue(cookie.toLowerCase(Locale.ROOT).endsWith("; path=/; httponly; samesite=strict"), cookie);
        HttpClient browser = anonymous.headers(h -> h.set("Cookie", cookie.substring(0, cookie.indexOf(';'))));
        assertEquals(200, exchange(browser, HttpMethod.GET, "/metrics").status);
        assertEquals(null, exchange(browser, HttpMethod.GET, "/metrics").headers.get("Set-Cookie"));
        assertProblem(
                exchange(
                        anonymous.headers(h -> h.set("Cookie", "scflux-token-" + service.port() + "=" + wrong)),
                        HttpMethod.GET,
                        "/metrics"),
                401);
    }

    /**
     * {@code token} with its first character changed: a wrong token of the right form. Replacing it by a fixed
     * {@code x} gave the token itself when the random token began with {@code x} (once in 64 runs), and the test then
     * saw the "wrong" token let through.
     */
    static String wrong(String token) {
        return (token.charAt(0) == 'x' ? "y" : "x") + token.substring(1);
    }

    /**
     * A token that begins with {@code x}, the one that made {@link #everyRequestNeedsTheToken} fail when it was
     * random, passes the same checks.
     */
    @Test
    void everyRequestNeedsTheTokenThatBeginsWithX() throws IOException {
        token = "x" + Secrets.token().substring(1);
        everyRequestNeedsTheToken();
    }

    /**
     * A request whose Origin is not the server's (scheme, host and port as it was reached) is a 403 before the token
     * is looked at, with the token too; the server's own origin, and no Origin, pass.
     */
    @ParameterizedTest
    @CsvSource({
        "http://evil.example,         403",
        "null,                        403",
        "https://127.0.0.1:PORT,      403",
        "http://localhost:PORT,       403",
        "http://127.0.0.1:1,          403",
        "http://127.0.0.1:PORT/x,     403",
        "http://127.0.0.1:PORT,       200",
        "HTTP://127.0.0.1:PORT,       200",
    })
    void aForeignOriginIsRefusedBeforeTheToken(String origin, int status) throws IOException {
        start(2, Schedulers.boundedElastic());
        String sent = origin.replace("PORT", Integer.toString(service.port()));
        Fetched withToken = exchange(client.headers(h -> h.set("Origin", sent)), HttpMethod.GET, "/metrics");
        assertEquals(status, withToken.status, sent);
        if (status == 403) {
            assertProblem(withToken, 403);
            assertProblem(
                    exchange(
                            HttpClient.newConnection().baseUrl(base).headers(h -> h.set("Origin", sent)),
                            HttpMethod.GET,
                            "/metrics"),
                    403);
            int post = client.headers(h -> h.set("Origin", sent).set("Content-Type", "application/json"))
                    .post()
                    .uri("/jobs")
                    .send(ByteBufFlux.fromString(Mono.just("{\"input\": \"" + INPUT + "\", \"steps\": " + "[\"qc\"]}")))
                    .response()
                    .map(res -> res.status().code())
                    .block(PATIENCE);
            assertEquals(403, post, "a cross-origin job is refused");
        }
        try (var files = Files.list(data)) {
            assertEquals(1, files.count(), "no job ran");
        }
    }

    /** Job ids are 128 random bits, as hex: unique, and nothing like a clock and a counter. */
    @Test
    void jobIdsAre128RandomBits() {
        start(2, Schedulers.boundedElastic());
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            ids.add(submit("[\"qc\"]"));
        }
        for (String id : ids) {
            assertTrue(id.matches("[0-9a-f]{32}"), id);
        }
        assertEquals(ids.size(), ids.stream().distinct().count());
        assertEquals(
                ids.size(),
                ids.stream().map(id -> id.substring(0, 8)).distinct().count(),
                ids.toString());
        for (String id : ids) {
            awaitEnd(id);
        }
    }

    /**
     * A POST whose body is not {@code application/json} (a form or a {@code text/plain} POST, which another site's
     * page may send without asking first) is a 415, before its body is read; JSON with a charset passes.
     */
    @ParameterizedTest
    @CsvSource({
        "text/plain, 415",
        "application/x-www-form-urlencoded, 415",
        "application/jsonx, 415",
        "'', 415",
        "'application/json; charset=utf-8', 202",
        "Application/JSON, 202"
    })
    void aPostThatIsNotJsonIs415(String type, int status) throws IOException {
        start(2, Schedulers.boundedElastic());
        HttpClient typed = type.isEmpty() ? client : client.headers(h -> h.set("Content-Type", type));
        Reply reply = typed.post()
                .uri("/jobs")
                .send(ByteBufFlux.fromString(Mono.just("{\"input\": \"" + INPUT + "\", \"steps\": [\"qc\"]}")))
                .responseSingle((res, body) -> body.asString()
                        .defaultIfEmpty("")
                        .map(text -> new Reply(
                                res.status().code(), res.responseHeaders().get("Content-Type"), text)))
                .block(PATIENCE);
        assertEquals(status, reply.status, reply.body);
        if (status == 415) {
            assertEquals(Problem.CONTENT_TYPE, reply.contentType);
            assertTrue(
                    JSON.readTree(reply.body).get("detail").asText().startsWith("the body must be application/json"),
                    reply.body);
        } else {
            awaitEnd(JSON.readTree(reply.body).get("id").asText());
        }
    }

    /**
     * Bodies are read up to --max-body (1 MiB by default) and no further. A body of exactly that many bytes is read
     * whole; one byte more is a 413, declared by its Content-Length or sent in chunks; and a 64 MiB body, sent as
     * fast as the socket takes it, is refused without being read: the server closes the connection, so the client got
     * to hand over only the few MiB the sockets' buffers hold, never the whole.
     */
    @ParameterizedTest
    @CsvSource({
        "declared, 1048576, 202",
        "chunked, 1048576, 202",
        "declared, 1048577, 413",
        "chunked, 1048577, 413",
        "declared, 67108864, 413",
        "chunked, 67108864, 413"
    })
    void aBodyOverMaxBodyIs413WithoutBeingRead(String framing, int size, int status) throws Exception {
        start(2, Schedulers.boundedElastic());
        byte[] job = ("{\"input\": \"" + INPUT + "\", \"steps\": [\"qc\"]}").getBytes(StandardCharsets.UTF_8);
        RawPost.Answer answer = RawPost.send(
                service.port(),
                "/jobs",
                List.of("Authorization: Bearer " + service.token(), "Content-Type: application/json"),
                job,
                size,
                framing.equals("chunked"));
        assertEquals(status, answer.status(), answer.body());
        if (status == 202) {
            assertEquals(size, answer.bodyBytesSent());
            awaitEnd(JSON.readTree(answer.body()).get("id").asText());
            return;
        }
        assertEquals(Problem.CONTENT_TYPE, answer.headers().get("content-type"));
        assertTrue(
                JSON.readTree(answer.body())
                        .get("detail")
                        .asText()
                        .endsWith("this service reads at most " + "1048576 (--max-body)"),
                answer.body());
        assertEquals("close", answer.headers().get("connection"));
        System.out.printf(
                "ServiceTest: a %s body of %d bytes: %d after %d bytes sent%n",
                framing, size, answer.status(), answer.bodyBytesSent());
        if (size > 2 * ServiceOptions.MAX_BODY_BYTES) {
            assertTrue(answer.bodyBytesSent() < size / 4, answer.bodyBytesSent() + " of " + size + " bytes sent");
        }
        try (var files = Files.list(data)) {
            assertEquals(1, files.count(), "no job ran");
        }
    }

    /**
     * The estimate a job's output is held to before it starts is an upper bound of the output it writes, for
     * compressed inputs (written uncompressed), uncompressed ones, CSC, dense (sc.pp.scale's, gzip'd), Cell Ranger
     * ones and one with layers, raw and obsm, and for steps that add columns, components or replace the matrices; and
     * not a loose one (within 4 times the output).
     */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "synth-3k-b.h5ad        | [\"qc\"]",
                "synth-3k-b.h5ad        | [\"qc\", \"normalize\", \"log1p\", \"hvg\", \"pca\"]",
                "synth-3k-b.h5ad        | [{\"step\": \"filter_cells\", \"params\": {\"min_genes\": 390}}]",
                "synth-3k-b.h5ad        | [\"pseudobulk\"], \"params\": {\"sample_col\": \"sample\", "
                        + "\"groups_col\": \"cell_type\"}",
                "synth-3k.int64.h5ad    | [\"qc\", \"normalize\", \"log1p\"]",
                "synth-3k.int64.h5ad    | [\"normalize\", \"log1p\", \"rank_genes_groups\"], \"params\": "
                        + "{\"groupby\": \"cell_type\", \"method\": \"wilcoxon\"}",
                "synth-3k.csc-gzip.h5ad | [\"qc\"]",
                "dense.h5ad             | [\"hvg\", \"pca\"]",
                "rich.anndata08.h5ad    | [\"qc\", \"hvg\"], \"params\": {\"percent_top\": [50, 100]}",
                "cellranger.h5          | [\"qc\", \"normalize\", \"log1p\", \"pca\"], \"params\": {\"n_comps\": 20}",
            })
    void theEstimateBoundsTheOutput(String input, String steps) throws IOException {
        if (input.equals("cellranger.h5")) {
            H5ad.writeCellRanger(
                            H5ad.read(TestFixtures.path("synth-3k.int64.h5ad")),
                            data.resolve(input),
                            WriteOptions.DEFAULT.withCompression(WriteOptions.Compression.GZIP))
                    .block();
        } else if (input.equals("dense.h5ad")) {
            AnnData scaled = Pp.scale(H5ad.read(data.resolve(INPUT)), ScaleOptions.defaults(), Streaming.DEFAULT)
                    .block(); // centred: X is dense float64
            H5ad.write(scaled, data.resolve(input), WriteOptions.DEFAULT.withCompression(WriteOptions.Compression.GZIP))
                    .block();
        } else if (!input.equals(INPUT)) {
            Files.copy(TestFixtures.path(input), data.resolve(input));
        }
        start(2, Schedulers.boundedElastic());
        String body = "{\"input\": \"" + input + "\", \"steps\": " + steps + "}";
        long estimate = JobRequest.parse(body.getBytes(StandardCharsets.UTF_8), new DataFolder(data, Settings.DEFAULT))
                .estimate(H5ad.read(data.resolve(input)));
        Reply accepted = post(body).block(PATIENCE);
        assertEquals(202, accepted.status, accepted.body);
        JsonNode done = awaitEnd(JSON.readTree(accepted.body).get("id").asText());
        assertEquals("done", done.get("event").asText(), done.toString());
        long written = Files.size(data.resolve(done.get("output").asText()));
        System.out.printf(
                "ServiceTest: %s %s: %d bytes written, %d estimated, input %d%n",
                input, steps, written, estimate, Files.size(data.resolve(input)));
        assertTrue(written <= estimate, written + " bytes written, " + estimate + " estimated");
        assertTrue(estimate <= 4 * written, estimate + " estimated for " + written + " bytes written");
    }

    /**
     * The results the service writes are kept under --max-results-mb: with room for a qc job's estimate and two qc
     * outputs less a byte, the third qc job deletes the first one's output before it starts, and its result, page and
     * plots answer 410. The second's output, the input, an output of an earlier run of the server and files the
     * service did not write stay.
     */
    @Test
    void theOldestResultsAreDeletedBeyondMaxResults() throws IOException {
        start(1, Schedulers.boundedElastic());
        Path earlier = data.resolve(awaitEnd(submit("[\"qc\"]")).get("output").asText());
        long size = Files.size(earlier);
        service.dispose();
        long estimate = JobRequest.parse(
                        ("{\"input\": \"" + INPUT + "\", \"steps\": [\"qc\"]}").getBytes(StandardCharsets.UTF_8),
                        new DataFolder(data, Settings.DEFAULT))
                .estimate(H5ad.read(data.resolve(INPUT)));
        Files.writeString(data.resolve("notes.txt"), "not the service's");
        Files.copy(data.resolve(INPUT), data.resolve("copy.h5ad"));

        start(
                data,
                ServiceOptions.defaults().withMaxJobs(1).withMaxResultsBytes(estimate + 2 * size - 1),
                Schedulers.boundedElastic());
        List<Path> outputs = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(submit("[\"qc\"]"));
            JsonNode end = awaitEnd(ids.get(i));
            assertEquals("done", end.get("event").asText(), end.toString());
            outputs.add(data.resolve(end.get("output").asText()));
            assertEquals(size, Files.size(outputs.get(i)), "qc writes the same bytes each time");
        }
        assertFalse(Files.exists(outputs.get(0)), "the oldest result is deleted");
        for (String route : List.of("result", "page", "plots/qc.png")) {
            Fetched gone = fetch("/jobs/" + ids.get(0) + "/" + route);
            assertProblem(gone, 410);
            assertTrue(JSON.readTree(gone.body).get("detail").asText().contains("--max-results-mb"), route);
        }
        for (int i = 1; i < 3; i++) {
            assertTrue(Files.exists(outputs.get(i)));
            assertEquals(200, fetch("/jobs/" + ids.get(i) + "/result").status);
        }
        for (String kept : List.of(INPUT, earlier.getFileName().toString(), "notes.txt", "copy.h5ad")) {
            assertTrue(Files.exists(data.resolve(kept)), kept + " stays");
        }
        try (var files = Files.list(data)) {
            assertEquals(6, files.count(), "nothing else written");
        }
    }

    /**
     * A job whose estimated output is over --max-results-mb by itself fails before its first step, saying so, writes
     * nothing and deletes no result.
     */
    @Test
    void aJobWhoseOutputCannotFitFailsBeforeItStarts() throws IOException {
        long estimate = JobRequest.parse(
                        ("{\"input\": \"" + INPUT + "\", \"steps\": [\"qc\"]}").getBytes(StandardCharsets.UTF_8),
                        new DataFolder(data, Settings.DEFAULT))
                .estimate(H5ad.read(data.resolve(INPUT)));
        start(data, ServiceOptions.defaults().withMaxResultsBytes(estimate / 2), Schedulers.boundedElastic());
        String id = submit("[\"qc\"]");
        StepVerifier.create(events(id, "").map(e -> e.name))
                .expectNext("queued", "started", "failed")
                .expectComplete()
                .verify(PATIENCE);
        String error = awaitEnd(id).get("error").asText();
        assertTrue(
                error.matches("the output would take up to [0-9.]+ MiB by its estimate from the input, more than "
                        + "the [0-9.]+ MiB the results may take \\(--max-results-mb\\)"),
                error);
        try (var files = Files.list(data)) {
            assertEquals(List.of(data.resolve(INPUT)), files.toList());
        }
    }

    /** The job's last event's data, with its name as {@code event}. */
    private JsonNode awaitEnd(String id) {
        Event last = events(id, "").blockLast(PATIENCE);
        return ((ObjectNode) last.data.deepCopy()).put("event", last.name);
    }

    private Fetched fetch(String uri) {
        return exchange(HttpMethod.GET, uri);
    }

    private Fetched exchange(HttpMethod method, String uri) {
        return exchange(client, method, uri);
    }

    private static Fetched exchange(HttpClient client, HttpMethod method, String uri) {
        return client.request(method)
                .uri(uri)
                .responseSingle((res, body) -> body.asByteArray()
                        .defaultIfEmpty(new byte[0])
                        .map(bytes -> new Fetched(
                                res.status().code(),
                                res.responseHeaders().get("Content-Type"),
                                res.responseHeaders(),
                                bytes)))
                .block(PATIENCE);
    }

    /** The samples of {@code /metrics} by name and labels, as Prometheus's text format writes them. */
    private Map<String, Double> metrics() {
        Fetched text = fetch("/metrics");
        assertEquals(200, text.status);
        assertTrue(text.contentType.startsWith("text/plain"), text.contentType);
        Map<String, Double> samples = new HashMap<>();
        for (String line : new String(text.body, StandardCharsets.UTF_8).split("\n")) {
            if (!line.isEmpty() && !line.startsWith("#")) {
                int space = line.lastIndexOf(' ');
                samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
            }
        }
        return samples;
    }

    private static double sample(Map<String, Double> metrics, String name) {
        Double value = metrics.get(name);
        assertTrue(value != null, name + " in " + metrics);
        return value;
    }

    private static void assertRow(JsonNode row, String index, String sample) {
        assertEquals(index, row.get("index").asText());
        assertEquals(sample, row.get("sample").asText());
        assertEquals(2, row.size(), "only the column asked for: " + row);
    }

    private int status(String uri) {
        return client.get()
                .uri(uri)
                .responseSingle((res, body) -> Mono.just(res.status().code()))
                .block(PATIENCE);
    }

    private String submit(String steps) {
        return submitOn(INPUT, steps);
    }

    private String submitOn(String input, String steps) {
        Reply reply =
                post("{\"input\": \"" + input + "\", \"steps\": " + steps + "}").block(PATIENCE);
        assertEquals(202, reply.status, reply.body);
        return json(reply.body).get("id").asText();
    }

    private static void assertProblem(Fetched reply, int status) throws IOException {
        assertEquals(status, reply.status, new String(reply.body, StandardCharsets.UTF_8));
        assertEquals("application/problem+json", reply.contentType);
        JsonNode problem = JSON.readTree(reply.body);
        assertEquals(status, problem.get("status").asInt());
        assertFalse(problem.get("title").asText().isEmpty());
        assertFalse(problem.get("detail").asText().isEmpty());
    }

    private Mono<Reply> post(String body) {
        return client.headers(h -> h.set("Content-Type", "application/json"))
                .post()
                .uri("/jobs")
                .send(ByteBufFlux.fromString(Mono.just(body)))
                .responseSingle((res, content) -> content.asString()
                        .defaultIfEmpty("")
                        .map(text -> new Reply(
                                res.status().code(), res.responseHeaders().get("Content-Type"), text)));
    }

    /** The job's Server-Sent Events, each from its {@code event:} and {@code data:} lines. */
    /** Follows job {@code id}'s events until it has started, then stops following. */
    private void awaitStarted(String id) {
        StepVerifier.create(events(id, "").map(e -> e.name))
                .expectNext("queued", "started")
                .thenCancel()
                .verify(PATIENCE);
    }

    private Flux<Event> events(String id, String query) {
        return lines(client.get()
                        .uri("/jobs/" + id + "/events" + query)
                        .responseContent()
                        .asString())
                .bufferUntil(String::isEmpty)
                .filter(lines -> lines.size() > 1)
                .map(lines -> new Event(
                        lines.get(0).substring("event: ".length()),
                        json(lines.get(1).substring("data: ".length()))));
    }

    /** The lines of {@code chunks}, cut wherever the network cut them, without their {@code \n}. */
    private static Flux<String> lines(Flux<String> chunks) {
        return Flux.defer(() -> {
            StringBuilder pending = new StringBuilder();
            return chunks.concatMapIterable(chunk -> {
                pending.append(chunk);
                List<String> complete = new ArrayList<>();
                for (int end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n")) {
                    complete.add(pending.substring(0, end));
                    pending.delete(0, end + 1);
                }
                return complete;
            });
        });
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    record Reply(int status, String contentType, String body) {}

    record Fetched(int status, String contentType, HttpHeaders headers, byte[] body) {}

    record Event(String name, JsonNode data) {}
}
