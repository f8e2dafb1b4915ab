/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.MissingColumnException;
import io.scflux.core.cache.BlockCache;
import io.scflux.io.CellRangerOptions;
import io.scflux.io.H5ad;
import io.scflux.samples.plot.Plot;
import io.scflux.samples.plot.PlotOptions;
import io.scflux.samples.report.ErrorKind;
import io.scflux.samples.report.ErrorMessage;
import io.scflux.samples.report.StepCatalogJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * {@code scflux serve}: an HTTP service on Reactor Netty that runs jobs of operators on the {@code .h5ad} files of a
 * data folder, streams their progress as Server-Sent Events and obs as NDJSON, shows a finished job's plots on a
 * results page and its meters at {@code /metrics}. Every request passes {@link Access} (origin, then token) before its
 * route and is logged once answered ({@link RequestLog}); every error is a {@link Problem}, Netty's own included, and
 * what leaves the service (problems, job events, the log) goes through one {@link Redaction}. Each connection has a
 * {@link ConnectionGuard}: idle ones are closed and their number bounded. Handlers never block: jobs run on the
 * {@code work} scheduler, other file work and drawing on Reactor's bounded elastic one, so pages of finished jobs do
 * not wait for running ones.
 */
public final class Service implements Disposable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Jobs' outputs read for their page and plots: the last few, each read once. */
    private static final int OUTPUTS_KEPT = 4;

    private final DataFolder folder;
    private final ServiceOptions options;
    private final Redaction redaction;
    private final ServiceMetrics metrics;
    private final Cache<Path, Mono<AnnData>> outputs =
            Caffeine.newBuilder().maximumSize(OUTPUTS_KEPT).build();
    private final Jobs jobs;
    private final Connections connections;
    private final DisposableServer server;

    private Service(
            DataFolder folder,
            ServiceOptions options,
            Scheduler work,
            Streaming streaming,
            BlockCache cache,
            Function<Redaction, RequestLog> log) {
        this.folder = folder;
        this.options = options;
        this.redaction = new Redaction(folder, options.token());
        this.metrics = new ServiceMetrics(cache);
        this.jobs = new Jobs(
                options.maxJobs(),
                options.keepJobs(),
                work,
                streaming,
                cache,
                metrics,
                new Results(options.maxResultsBytes()),
                redaction);
        Access access = new Access(options.token());
        RequestLog requests = log.apply(redaction);
        this.connections = new Connections(options.maxConnections());
        Router router = new Router()
                .get("/", this::index)
                .post("/jobs", this::submit)
                .get("/jobs", this::list)
                .get("/jobs/{id}", this::state)
                .get("/jobs/{id}/events", this::events)
                .get("/jobs/{id}/result", this::result)
                .get("/jobs/{id}/page", this::page)
                .get("/jobs/{id}/plots/{image}", this::plot)
                .delete("/jobs/{id}", this::cancel)
                .get("/datasets/{name}/obs", this::obs)
                .get("/steps", this::steps)
                .get("/metrics", this::metrics);
        // Each request is handled on the parallel scheduler, not inline on its event loop: Reactor Netty 1.3.7 stops
        // reading a keep-alive connection when a request that came before the last one's operations ended is answered
        // synchronously (reactor/reactor-netty#4361), and a 401 is: every other request of a browser's connection
        // after an anonymous one waited for ever (17 to 21 of 40 connections alternating with and without the token).
        this.server = HttpServer.create()
                .host(options.host())
                .port(options.port())
                .doOnChannelInit((observer, channel, address) -> channel.pipeline()
                        .addAfter(
                                NettyPipeline.HttpCodec,
                                ConnectionGuard.NAME,
                                new ConnectionGuard(options.idleTimeout(), connections, redaction, requests)))
                .readTimeout(options.idleTimeout())
                .handle((request, response) -> requests.around(
                        request,
                        response,
                        Mono.defer(() -> {
                                    access.check(request, response);
                                    return Mono.from(router.dispatch(request, response));
                                })
                                .onErrorResume(e -> fail(request, response, e))
                                .subscribeOn(Schedulers.parallel())))
                .bindNow();
    }

    /**
     * A service on the {@code .h5ad} files of {@code data} as {@code options} say, running its jobs on {@code work},
     * streaming X as {@code streaming} says and sharing the jobs' reads of X through {@code cache}. Blocking (it
     * resolves the folder's real path and binds the port).
     */
    public static Service start(
            Path data, ServiceOptions options, Scheduler work, Streaming streaming, BlockCache cache) {
        return new Service(
                new DataFolder(data, streaming.settings()), options, work, streaming, cache, RequestLog::new);
    }

    /** {@link #start}, the request log's lines sent to {@code requestLog} (a test's capture) instead of slf4j. */
    static Service start(
            Path data,
            ServiceOptions options,
            Scheduler work,
            Streaming streaming,
            BlockCache cache,
            Consumer<String> requestLog) {
        return new Service(
                new DataFolder(data, streaming.settings()),
                options,
                work,
                streaming,
                cache,
                redaction -> new RequestLog(redaction, requestLog));
    }

    /** The port the service listens on. */
    int port() {
        return server.port();
    }

    /**
     * The address that opens the service in a browser, with its token: {@code http://HOST:PORT/?token=TOKEN} (an IPv6
     * host in brackets), as Jupyter prints it.
     */
    public String url() {
        String host = options.host().contains(":") ? "[" + options.host() + "]" : options.host();
        return "http://" + host + ":" + port() + "/?" + Access.QUERY + "=" + options.token();
    }

    /** The connections open now. */
    int connections() {
        return connections.count();
    }

    /** The token every request must carry. */
    @Nullable
    String token() {
        return options.token();
    }

    /** The job {@code id}, or null. */
    @Nullable
    Job job(String id) {
        return jobs.get(id);
    }

    /** Completes when the server has stopped. */
    public Mono<Void> onDispose() {
        return server.onDispose();
    }

    @Override
    public void dispose() {
        jobs.dispose();
        server.disposeNow();
    }

    /** {@code /}: the datasets of the data folder and how to run a job, as HTML. */
    private Publisher<Void> index(HttpServerRequest request, HttpServerResponse response) {
        return Mono.fromCallable(() -> IndexPage.html(folder.datasets(), jobs.all()))
                .subscribeOn(Schedulers.boundedElastic())
                .flatMap(html -> response.header(HttpHeaderNames.CONTENT_TYPE, "text/html; charset=utf-8")
                        .sendString(Mono.just(html))
                        .then());
    }

    private Publisher<Void> submit(HttpServerRequest request, HttpServerResponse response) {
        return JsonBody.read(request, options.maxBodyBytes())
                .publishOn(Schedulers.boundedElastic())
                .map(body -> jobs.submit(JobRequest.parse(body, folder)))
                .flatMap(job -> json(
                        response.status(HttpResponseStatus.ACCEPTED),
                        JSON.createObjectNode().put("id", job.id())))
                .onErrorMap(
                        InvalidField.class,
                        e -> new Problem(
                                HttpResponseStatus.BAD_REQUEST, "Invalid job request", e.getMessage(), e.field()));
    }

    /** {@code GET /jobs}: the jobs known, in submission order, with their state and links. */
    private Publisher<Void> list(HttpServerRequest request, HttpServerResponse response) {
        var array = JSON.createArrayNode();
        jobs.all().forEach(j -> array.add(j.describe()));
        return json(response, array);
    }

    /** {@code GET /jobs/ID}: one job's state and links (404 for an unknown or forgotten id). */
    private Publisher<Void> state(HttpServerRequest request, HttpServerResponse response) {
        return json(response, job(request).describe());
    }

    private Publisher<Void> events(HttpServerRequest request, HttpServerResponse response) {
        Job job = job(request);
        boolean cancelOnDisconnect = "true".equals(query(request, "cancelOnDisconnect"));
        return response.header(HttpHeaderNames.CONTENT_TYPE, "text/event-stream")
                .header(HttpHeaderNames.CACHE_CONTROL, "no-cache")
                .sendString(job.events().map(JobEvent::toSse).doOnCancel(() -> {
                    if (cancelOnDisconnect) {
                        job.cancel();
                    }
                }))
                .then();
    }

    private Publisher<Void> result(HttpServerRequest request, HttpServerResponse response) {
        Job job = finished(job(request));
        Path file = job.output();
        return Mono.fromCallable(() -> Files.size(file))
                .subscribeOn(Schedulers.boundedElastic())
                .flatMap(size -> response.header(HttpHeaderNames.CONTENT_TYPE, "application/x-hdf5")
                        .header(
                                HttpHeaderNames.CONTENT_DISPOSITION,
                                "attachment; filename=\"" + file.getFileName() + "\"")
                        .sendFile(file, 0, size)
                        .then());
    }

    private Publisher<Void> page(HttpServerRequest request, HttpServerResponse response) {
        Job job = kept(job(request));
        String color = query(request, "color");
        Mono<Optional<AnnData>> output = job.done() ? output(job).map(Optional::of) : Mono.just(Optional.empty());
        return output.publishOn(Schedulers.boundedElastic())
                .map(data -> ResultsPage.html(job, data.orElse(null), color))
                .flatMap(html -> response.header(HttpHeaderNames.CONTENT_TYPE, "text/html; charset=utf-8")
                        .header(HttpHeaderNames.CACHE_CONTROL, "no-cache")
                        .sendString(Mono.just(html))
                        .then());
    }

    /**
     * {@code /jobs/ID/plots/KIND.png[?color=COL]}: the plot of a finished job's output, drawn on the bounded elastic
     * scheduler; 404 for an unknown plot, 400 for an unknown colour column, 409 when the job has no output or the
     * output lacks what the plot shows.
     */
    private Publisher<Void> plot(HttpServerRequest request, HttpServerResponse response) {
        Job job = job(request);
        String image = routed(request, "image");
        Plot plot;
        try {
            plot = Plot.of(image.endsWith(".png") ? image.substring(0, image.length() - ".png".length()) : image);
        } catch (IllegalArgumentException e) {
            throw new Problem(HttpResponseStatus.NOT_FOUND, "Unknown plot", e.getMessage() + ", as KIND.png", "plot");
        }
        finished(job);
        String color = query(request, "color");
        return output(job)
                .publishOn(Schedulers.boundedElastic())
                .map(data ->
                        plot.png(data, job.output().getFileName().toString(), PlotOptions.DEFAULT.withColor(color)))
                .flatMap(png -> response.header(HttpHeaderNames.CONTENT_TYPE, "image/png")
                        .header(HttpHeaderNames.CACHE_CONTROL, "no-cache")
                        .sendByteArray(Mono.just(png))
                        .then())
                .onErrorMap(
                        MissingColumnException.class,
                        e -> new Problem(
                                HttpResponseStatus.BAD_REQUEST, "Invalid plot request", e.getMessage(), "color"))
                .onErrorMap(
                        IllegalArgumentException.class,
                        e -> new Problem(
                                HttpResponseStatus.CONFLICT, "Cannot draw " + plot.wireName(), e.getMessage(), "plot"));
    }

    /** {@code GET /steps}: the steps a job may name, with their parameters ({@link StepCatalogJson}). */
    private Publisher<Void> steps(HttpServerRequest request, HttpServerResponse response) {
        return response.header(HttpHeaderNames.CONTENT_TYPE, "application/json")
                .sendString(Mono.just(StepCatalogJson.json()))
                .then();
    }

    private Publisher<Void> metrics(HttpServerRequest request, HttpServerResponse response) {
        return Mono.fromCallable(metrics::scrape)
                .subscribeOn(Schedulers.boundedElastic())
                .flatMap(text -> response.header(HttpHeaderNames.CONTENT_TYPE, ServiceMetrics.CONTENT_TYPE)
                        .sendString(Mono.just(text))
                        .then());
    }

    private Publisher<Void> cancel(HttpServerRequest request, HttpServerResponse response) {
        job(request).cancel();
        return response.status(HttpResponseStatus.ACCEPTED).send();
    }

    /**
     * {@code /datasets/NAME/obs[?columns=a,b]}: obs as NDJSON; 404 for a name that is no dataset of the data folder,
     * 400 for an unknown column, 422 for a file that is not a readable {@code .h5ad}.
     */
    private Publisher<Void> obs(HttpServerRequest request, HttpServerResponse response) {
        String columns = query(request, "columns");
        List<String> names = columns == null || columns.isEmpty() ? List.of() : Arrays.asList(columns.split(","));
        return Mono.fromCallable(() -> folder.dataset(request.param("name"), "name"))
                .flatMap(H5ad::open)
                .map(data -> ObsRows.of(data.obs(), names))
                .flatMap(rows -> response.header(HttpHeaderNames.CONTENT_TYPE, "application/x-ndjson")
                        .sendString(rows)
                        .then())
                .onErrorMap(
                        InvalidField.class,
                        e -> new Problem(
                                e.field().equals("name")
                                        ? HttpResponseStatus.NOT_FOUND
                                        : HttpResponseStatus.BAD_REQUEST,
                                "Invalid dataset request",
                                e.getMessage(),
                                e.field()));
    }

    /**
     * A finished job's output, its annotations read once on Reactor's bounded elastic scheduler for the page and every
     * plot (X stays in the file); a failed read is not kept.
     */
    private Mono<AnnData> output(Job job) {
        return outputs.get(
                job.output(),
                file -> H5ad.open(file, CellRangerOptions.defaults(), folder.settings())
                        .cache(data -> Duration.ofMillis(Long.MAX_VALUE), e -> Duration.ZERO, () -> Duration.ZERO));
    }

    /** The path parameter {@code name} of {@code request}, which the route that handles it binds. */
    private static String routed(HttpServerRequest request, String name) {
        return Objects.requireNonNull(request.param(name), () -> "the route binds no " + name);
    }

    /** The job of the request's {@code id}, or the 404 Problem. */
    private Job job(HttpServerRequest request) {
        String id = routed(request, "id");
        Job job = jobs.get(id);
        if (job == null) {
            throw new Problem(HttpResponseStatus.NOT_FOUND, "Unknown job", "no job " + id, "id");
        }
        return job;
    }

    /** {@code job} when it is done and its output kept, else the 409 or 410 Problem. */
    private static Job finished(Job job) {
        if (!job.done()) {
            throw new Problem(
                    HttpResponseStatus.CONFLICT,
                    "No result",
                    "job " + job.id() + (job.ended() ? " ended without a result" : " has not finished"),
                    "id");
        }
        return kept(job);
    }

    /** {@code job} unless its output was deleted to keep the results under --max-results-mb: the 410 Problem. */
    private static Job kept(Job job) {
        if (job.evicted()) {
            throw new Problem(
                    HttpResponseStatus.GONE,
                    "Result deleted",
                    "the result of job " + job.id() + " was "
                            + "deleted, the oldest, to keep the results under --max-results-mb",
                    "id");
        }
        return job;
    }

    /**
     * Answers {@code e} as a problem document, unless the response has begun (a stream cut short: the connection then
     * closes): a {@link Problem} as it is, any other failure by its {@link ErrorKind} with the message the command
     * line would print. After a 413, or any error to a request that declares a body over --max-body, the connection
     * is closed, so that no more of the body is read (Reactor Netty would read and drop all of it to reuse the
     * connection). A smaller or chunked body is left to Reactor Netty: closing with the client's bytes unread resets
     * the connection, and a client still sending may lose the answer.
     */
    private Mono<Void> fail(HttpServerRequest request, HttpServerResponse response, Throwable e) {
        if (response.hasSentHeaders()) {
            return Mono.error(e);
        }
        Problem problem = problem(e);
        if (problem.status().equals(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE)
                || JsonBody.declaredLength(request) > options.maxBodyBytes()) {
            response.keepAlive(false);
        }
        return problem.send(response, redaction);
    }

    private static Problem problem(Throwable e) {
        if (e instanceof Problem p) {
            return p;
        }
        if (e instanceof InvalidField f) {
            return new Problem(HttpResponseStatus.BAD_REQUEST, "Invalid request", f.getMessage(), f.field());
        }
        return switch (ErrorKind.of(e)) {
            case NOT_FOUND -> new Problem(HttpResponseStatus.NOT_FOUND, "Not found", ErrorMessage.of(e), null);
            case PERMISSION -> new Problem(HttpResponseStatus.FORBIDDEN, "Permission denied", ErrorMessage.of(e), null);
            case MISSING_KEY, INVALID, USAGE ->
                new Problem(HttpResponseStatus.UNPROCESSABLE_ENTITY, "Unprocessable data", ErrorMessage.of(e), null);
            case IO, INTERNAL ->
                new Problem(HttpResponseStatus.INTERNAL_SERVER_ERROR, "Internal error", ErrorMessage.of(e), null);
        };
    }

    private static Mono<Void> json(HttpServerResponse response, JsonNode body) {
        return response.header(HttpHeaderNames.CONTENT_TYPE, "application/json")
                .sendString(Mono.just(body.toString()))
                .then();
    }

    private static @Nullable String query(HttpServerRequest request, String name) {
        Map<String, List<String>> parameters = new QueryStringDecoder(request.uri()).parameters();
        List<String> values = parameters.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }
}
