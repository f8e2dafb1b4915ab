/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.scflux.core.BlockSource;
import io.scflux.core.ForwardingSource;
import io.scflux.core.Pass;
import io.scflux.core.RowBlock;
import io.scflux.core.RowReader;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.cache.BlockCache;
import io.scflux.io.CellRangerOptions;
import io.scflux.io.FileMatrix;
import io.scflux.io.H5ad;
import io.scflux.io.WriteOptions;
import io.scflux.io.hdf5.ReadStats;
import io.scflux.samples.report.ErrorMessage;
import io.scflux.samples.report.Progress;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;

/**
 * One service job: reads its input, applies its steps and writes {@code <input>-<id>.h5ad} atomically into the data
 * folder. Its events are replayed to every subscriber from the first; {@link #cancel} stops it queued or running, and
 * the writer then leaves no output file.
 */
final class Job {

    private final String id;
    private final JobRequest request;
    private final Path output;
    private final UnaryOperator<String> redaction;
    private final Runnable onEnd;
    private final Sinks.Many<JobEvent> events = Sinks.many().replay().all();
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile boolean cancelRequested;
    private volatile JobEvent last;
    private final Stages stages = new Stages();
    private volatile Results.@Nullable Result written;

    /**
     * A queued job whose error, if it fails, is told through {@code redaction} (paths relative to the data folder, no
     * token); {@code onEnd} runs once when it ends, before its last event is sent.
     */
    Job(String id, JobRequest request, UnaryOperator<String> redaction, Runnable onEnd) {
        this.id = id;
        this.request = request;
        this.redaction = redaction;
        this.onEnd = onEnd;
        this.output = request.output(id);
        emit(JobEvent.queued());
    }

    String id() {
        return id;
    }

    /** The output file; it exists once the job is done. */
    Path output() {
        return output;
    }

    /** Whether the job ended well: its output is complete. */
    boolean done() {
        JobEvent end = last;
        return end != null && end.name().equals("done");
    }

    /** Whether the job's output was deleted to keep the results under --max-results-mb (it was done). */
    boolean evicted() {
        Results.Result r = written;
        return r != null && r.evicted();
    }

    /** Whether the job has left the queue: it runs or has ended. */
    boolean started() {
        return started.get();
    }

    /** Whether {@link #cancel} was called. */
    boolean cancelRequested() {
        return cancelRequested;
    }

    /** Whether the job has ended, well or not. */
    boolean ended() {
        return last != null;
    }

    /** The last event ({@code done}, {@code failed}, {@code cancelled}), or null while the job is queued or runs. */
    JobEvent last() {
        return last;
    }

    /** {@code queued}, {@code running}, or how it ended: {@code done}, {@code failed}, {@code cancelled}. */
    String state() {
        JobEvent end = last;
        return end != null ? end.name() : started() ? "running" : "queued";
    }

    /** The job's state and links as {@code GET /jobs} and {@code GET /jobs/ID} give them. */
    ObjectNode describe() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("id", id);
        o.put("input", input());
        if (inputs().size() > 1) {
            inputs().forEach(o.putArray("inputs")::add);
        }
        steps().forEach(o.putArray("steps")::add);
        o.put("state", state());
        ObjectNode links = o.putObject("links");
        String base = "/jobs/" + id;
        links.put("self", base);
        links.put("events", base + "/events");
        if (done() && !evicted()) {
            links.put("result", base + "/result");
            links.put("page", base + "/page");
        }
        return o;
    }

    /** The (first) input file's name in the data folder. */
    String input() {
        return request.input();
    }

    /** The input files' names in the data folder, in order. */
    List<String> inputs() {
        return request.inputs();
    }

    /** The names of the job's steps, in order. */
    List<String> steps() {
        return request.stepNames();
    }

    /** The events so far, then the coming ones until the last. */
    Flux<JobEvent> events() {
        return events.asFlux();
    }

    /**
     * Stops the job; nothing happens if it has ended. A queued job ends at once; a running one fails its next block
     * read, so the writer aborts and removes its temporary file, unless it was already committing the output: then
     * the job ends {@code done}, as its file says. Never blocks.
     */
    void cancel() {
        cancelRequested = true;
        if (started.compareAndSet(false, true)) {
            end(JobEvent.cancelled());
        }
    }

    /**
     * Runs the job on {@code work} (file reads, the operators, the write), X read through {@code cache}, ending with
     * its last event once {@code metrics} has the job; completes at once when the job was cancelled while queued.
     * Before its steps, {@code results} makes room for its estimated output (or fails the job, which then writes
     * nothing); its output is counted there once written.
     */
    Mono<Void> run(Scheduler work, Streaming streaming, BlockCache cache, ServiceMetrics metrics, Results results) {
        return Mono.defer(() -> {
                    if (!started.compareAndSet(false, true)) {
                        return Mono.<Void>empty();
                    }
                    long began = System.nanoTime();
                    AtomicReference<ReadStats> reads = new AtomicReference<>();
                    emit(JobEvent.started());
                    Mono<Void> pipeline = Mono.fromRunnable(this::checkNotCancelled)
                            .thenMany(Flux.fromIterable(request.files()))
                            .concatMap(f -> H5ad.open(f, CellRangerOptions.defaults(), streaming.settings()))
                            .collectList()
                            .publishOn(work)
                            .map(request::container)
                            .flatMap(data -> Mono.fromCallable(() -> {
                                if (data.x() instanceof FileMatrix m) {
                                    reads.set(m.stats());
                                }
                                results.makeRoom(request.estimate(data));
                                return data;
                            }))
                            .flatMap(data -> apply(data, streaming, cache, metrics))
                            .flatMap(result -> {
                                stageStarts("write");
                                return H5ad.write(result, output, WriteOptions.DEFAULT.streamedAs(streaming));
                            })
                            .then(Mono.<Void>fromRunnable(() -> count(results)).subscribeOn(work))
                            .subscribeOn(work);
                    Consumer<JobEvent> finish = event -> {
                        metrics.jobEnded(event.name(), System.nanoTime() - began, reads.get());
                        end(event);
                    };
                    return pipeline.then(Mono.fromRunnable(() -> finish.accept(
                                    JobEvent.done(output.getFileName().toString(), "/jobs/" + id + "/page"))))
                            .onErrorResume(e -> {
                                finish.accept(
                                        cancelRequested
                                                ? JobEvent.cancelled()
                                                : JobEvent.failed(redaction.apply(ErrorMessage.of(e))));
                                return Mono.empty();
                            });
                })
                .then();
    }

    /** Counts the output, written, among the {@code results}. Blocking. */
    private void count(Results results) {
        try {
            written = results.add(output, Files.size(output));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Mono<AnnData> apply(AnnData data, Streaming streaming, BlockCache cache, ServiceMetrics metrics) {
        BlockSource x = data.x();
        if (x != null) {
            data.setX(cancellable(Progress.to(this::progress).track(cache.cached(x)), metrics));
        }
        if (request.combine() != null) {
            stageStarts(request.stepNames().get(0));
        }
        int first = request.combine() == null ? 0 : 1;
        return applyAll(
                data,
                request.steps(),
                streaming,
                i -> stageStarts(request.stepNames().get(first + i)));
    }

    /**
     * {@code steps} applied to {@code data} one after the other, {@code onStep} told the index of each as it starts.
     * The steps are drained by {@code concatMap}, which subscribes to a step's Mono once the one before has given its
     * result, in a loop: the stack is as deep for a thousand steps as for one. A {@code flatMap} nested per step
     * subscribes and signals through a frame per step instead, and 5,000 steps overflowed the stack.
     */
    static Mono<AnnData> applyAll(AnnData data, List<Step.Bound> steps, Streaming streaming, IntConsumer onStep) {
        return Mono.defer(() -> {
            AtomicReference<AnnData> current = new AtomicReference<>(data);
            return Flux.range(0, steps.size())
                    .concatMap(i -> {
                        onStep.accept(i);
                        return steps.get(i).apply(current.get(), streaming);
                    })
                    .doOnNext(current::set)
                    .then(Mono.fromSupplier(current::get));
        });
    }

    /**
     * {@code source}, whose reads fail once the job is cancelled (how a cancel reaches operators and the writer) and
     * are counted in {@code metrics} otherwise.
     */
    private BlockSource cancellable(BlockSource source, ServiceMetrics metrics) {
        return new ForwardingSource(source) {
            @Override
            public RowReader open() {
                return counted(source.open());
            }

            @Override
            public RowReader open(Pass pass) {
                return counted(source.open(pass));
            }

            private RowReader counted(RowReader reader) {
                return RowReader.over(reader, (blockIndex, from, to) -> {
                    checkNotCancelled();
                    RowBlock block = reader.read(blockIndex, from, to);
                    metrics.blockProcessed();
                    return block;
                });
            }
        };
    }

    private void checkNotCancelled() {
        if (cancelRequested) {
            throw new CancellationException("job " + id + " cancelled");
        }
    }

    /** A pass's progress, under its stage, announced first when it is new. */
    private void progress(Progress.Report r) {
        String stage = stages.of(r.pass(), r.name(), s -> emit(JobEvent.stage(s)));
        emit(JobEvent.progress(stage, r.blocks(), r.totalBlocks(), r.rows(), r.rowsPerSecond()));
    }

    private void stageStarts(String name) {
        stages.step(name);
        emit(JobEvent.stage(name));
    }

    /** Sends the last event, once: later ones (a cancel after the end) are dropped. */
    private synchronized void end(JobEvent event) {
        if (last == null) {
            last = event;
            onEnd.run();
            events.tryEmitNext(event);
            events.tryEmitComplete();
        }
    }

    private synchronized void emit(JobEvent event) {
        if (last == null) {
            events.tryEmitNext(event);
        }
    }
}
