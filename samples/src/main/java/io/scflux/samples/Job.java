package io.scflux.samples;

import io.scflux.core.BlockSource;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.io.H5ad;
import io.scflux.io.WriteOptions;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
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
    private final Sinks.Many<JobEvent> events = Sinks.many().replay().all();
    private final Sinks.Empty<Void> cancelled = Sinks.empty();
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile JobEvent last;
    private volatile String stage = "read";

    Job(String id, JobRequest request) {
        this.id = id;
        this.request = request;
        String in = request.input();
        this.output = request.file().resolveSibling(in.substring(0, in.length() - ".h5ad".length()) + "-" + id
                + ".h5ad");
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

    /** Whether the job has left the queue: it runs or has ended. */
    boolean started() {
        return started.get();
    }

    /** Whether the job has ended, well or not. */
    boolean ended() {
        return last != null;
    }

    /** The events so far, then the coming ones until the last. */
    Flux<JobEvent> events() {
        return events.asFlux();
    }

    /**
     * Stops the job; nothing happens if it has ended. A running job's operators and writer are cancelled on the
     * calling thread, which may then delete a temporary file: call it off the event loop.
     */
    void cancel() {
        if (started.compareAndSet(false, true)) {
            end(JobEvent.cancelled());
        } else {
            cancelled.tryEmitEmpty();
        }
    }

    /**
     * Runs the job on {@code work} (file reads, the operators, the write), ending with its last event; completes at
     * once when the job was cancelled while queued.
     */
    Mono<Void> run(Scheduler work, Streaming streaming) {
        return Mono.defer(() -> {
            if (!started.compareAndSet(false, true)) {
                return Mono.<Void>empty();
            }
            emit(JobEvent.started());
            Mono<Void> pipeline = Mono.fromCallable(() -> H5ad.read(request.file()))
                    .flatMap(data -> apply(data, streaming))
                    .flatMap(result -> {
                        stageStarts("write");
                        return H5ad.write(result, output, WriteOptions.DEFAULT.withPlan(streaming.target())
                                .withExecution(streaming.execution()));
                    })
                    .subscribeOn(work);
            return pipeline
                    .then(Mono.fromRunnable(() -> end(JobEvent.done(output.getFileName().toString()))))
                    .onErrorResume(e -> {
                        end(JobEvent.failed(Scflux.message(e)));
                        return Mono.empty();
                    })
                    .takeUntilOther(cancelled.asMono())
                    .then(Mono.fromRunnable(() -> end(JobEvent.cancelled())));
        }).then();
    }

    private Mono<AnnData> apply(AnnData data, Streaming streaming) {
        BlockSource x = data.x();
        if (x != null) {
            data.setX(Progress.to((blocks, total, rows, totalRows, rate, last) ->
                    emit(JobEvent.progress(stage, blocks, total, rows, rate))).track(x));
        }
        Mono<AnnData> chain = Mono.just(data);
        for (int i = 0; i < request.steps().size(); i++) {
            String name = request.stepNames().get(i);
            Step.Bound step = request.steps().get(i);
            chain = chain.flatMap(d -> {
                stageStarts(name);
                return step.apply(d, streaming);
            });
        }
        return chain;
    }

    private void stageStarts(String name) {
        stage = name;
        emit(JobEvent.stage(name));
    }

    /** Sends the last event, once: later ones (a cancel after the end) are dropped. */
    private synchronized void end(JobEvent event) {
        if (last == null) {
            last = event;
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
