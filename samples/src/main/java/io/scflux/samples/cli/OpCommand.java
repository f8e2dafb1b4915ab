/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.BlockSource;
import io.scflux.core.InvalidValueException;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.io.FileMatrix;
import io.scflux.io.H5ad;
import io.scflux.io.WriteOptions;
import io.scflux.ops.CatalogStep;
import io.scflux.ops.StepCatalog;
import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.Parameter;
import io.scflux.samples.report.ErrorMessage;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import reactor.core.publisher.Mono;

/**
 * What every operator command shares: its step's options, made from the step's catalog parameters
 * ({@link StepOptions}); read IN, apply one step (streaming X with the global {@code --threads} and
 * {@code --chunk-nnz}, its blocks shared between passes through the {@code --cache-mb} cache), and write OUT
 * atomically, holding the input plus the step's results.
 */
abstract class OpCommand implements Callable<Integer>, StepCommand {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "IN", description = "The .h5ad (or Cell Ranger .h5) to read.")
    Path input;

    @ArgGroup(exclusive = true, multiplicity = "1")
    @SuppressWarnings("NullAway.Init") // multiplicity 1: picocli sets it, or the command line is a usage error
    Destination destination;

    /** Where the result goes: {@code -o OUT}, or over the input ({@code --in-place}); exactly one. */
    static final class Destination {
        @Option(
                names = {"-o", "--output"},
                required = true,
                paramLabel = "OUT",
                description = "The .h5ad to write (not the input itself: see --in-place).")
        Path output;

        @Option(
                names = "--in-place",
                required = true,
                description = "Rewrite IN with the result: written beside it under a temporary name and renamed over "
                        + "it when complete, so an interrupted run leaves IN as it was.")
        boolean inPlace;
    }

    /** Set by {@link #call}: where the result is written (IN itself with {@code --in-place}). */
    @SuppressWarnings("NullAway.Init") // set first thing in call, before anything reads it
    Path output;

    @Option(
            names = "--annotations-only",
            description = "Write OUT without X, layers and raw: only obs, var, obsm, varm, obsp, varp and uns (what a "
                    + "step added, without copying the matrix).")
    boolean annotationsOnly;

    @Option(
            names = "--compression",
            paramLabel = "none|gzip",
            defaultValue = "none",
            description = "Compression of the written datasets (default: ${DEFAULT-VALUE}).")
    WriteOptions.Compression compression;

    @Option(
            names = "--engine",
            paramLabel = "local|spark",
            defaultValue = "local",
            description = "Where the passes over X run: this JVM (local, the default) or Apache Spark (spark, on the "
                    + "host backend; Spark must be on the class path: scflux-spark.jar or spark-submit). Results "
                    + "are the same bits.")
    EngineChoice engine;

    @Option(
            names = "--master",
            paramLabel = "URL",
            description = "With --engine spark: the Spark master (local[2], spark://host:7077; default: the one "
                    + "spark-submit sets, else local[*]). Every executor must see IN's path and OUT's folder.")
    String master;

    @Option(
            names = "--conf",
            paramLabel = "KEY=VALUE",
            description = "With --engine spark: a Spark setting (repeatable), as spark-submit's --conf: e.g. "
                    + "spark.executor.memory=4g, spark.driver.host=HOST (the address executors reach the driver at "
                    + "on a cluster of several hosts).")
    Map<String, String> sparkConf = new LinkedHashMap<>();

    @Option(
            names = "--spark-timeout",
            paramLabel = "SECONDS",
            defaultValue = "120",
            description = "With --engine spark on a cluster: fail, naming Spark's reason, when no task finishes and "
                    + "none runs for this long (no executor registered, executors that keep exiting; default: "
                    + "${DEFAULT-VALUE}).")
    int sparkTimeout;

    /** The engines of {@code --engine}. */
    enum EngineChoice {
        LOCAL,
        SPARK
    }

    /**
     * How a result is written: {@link H5ad#write}, or from Spark's part files; {@code --in-place} by
     * {@link H5ad#writeInPlace}, which alone may write over the file the result reads.
     */
    @FunctionalInterface
    interface Writer {
        Mono<Void> write(AnnData data, Path target, WriteOptions options);
    }

    private static boolean compressed(BlockSource x) {
        return !(x instanceof FileMatrix m) || m.info().compressed();
    }

    /**
     * The step: reads what it needs of {@code data} and returns the container to write (usually {@code data}). By
     * default the catalog's {@link #step}, bound to the values given ({@link #bind}).
     */
    Mono<AnnData> apply(AnnData data, Streaming streaming) {
        return bind(catalogStep(), arguments(), data).apply(data, streaming);
    }

    /** The catalog's step of this command's name, or null for a command that composes steps (preprocess). */
    @Nullable
    CatalogStep step() {
        return StepCatalog.byCommand(spec.name());
    }

    /** The catalog's step of this command, which a command that runs one step has. */
    CatalogStep catalogStep() {
        return Objects.requireNonNull(step(), () -> spec.name() + " is no step of the catalog");
    }

    /** The parameters whose options this command takes ({@link StepOptions}, added by the root command): its step's. */
    @Override
    public List<Parameter<?>> parameters() {
        CatalogStep step = step();
        return step == null ? List.of() : step.parameters();
    }

    /** The values given for {@link #parameters}, by scanpy's names. */
    final Arguments arguments() {
        return StepOptions.read(spec, parameters());
    }

    /**
     * {@code step} with its options from {@code arguments}, checked now, and the columns they name checked against
     * {@code data}: a value refused or a column missing is a usage error, before any pass over X.
     */
    final CatalogStep.Bound bind(CatalogStep step, Arguments arguments, AnnData data) {
        CatalogStep.Bound bound = step.bind(arguments);
        StepOptions.checkColumns(step, arguments, data, input);
        return bound;
    }

    /**
     * Whether the step reads X several times besides writing it (statistics, then covariance, then projection...):
     * then a compressed X goes through the block cache by default. One statistics pass and the write re-read the file
     * instead, and so does every pass over an uncompressed X: reading it again is cheaper than keeping it on the heap
     * (200,000-cell pipeline under -Xmx1g: 24.4 s / 518 MB without the cache, 28.1 s / 929 MB with an eighth of the
     * heap; gzip: 62.9 s without, 47.6 s with).
     */
    boolean rereadsX() {
        return false;
    }

    @Override
    public Integer call() throws IOException {
        GlobalOptions global = GlobalOptions.of(spec);
        GlobalOptions.readable(input);
        output = target();
        Streaming streaming = global.streaming(spec.commandLine().getErr());
        if (engine == EngineChoice.SPARK) {
            if (sparkTimeout < 1) {
                throw new ParameterException(
                        spec.commandLine(), "--spark-timeout must be at least 1 second, got " + sparkTimeout);
            }
            try (ClusterRun spark = ClusterRun.spark(spec, master, sparkConf, Duration.ofSeconds(sparkTimeout))) {
                spec.commandLine().getErr().println("scflux: passes over X on " + spark);
                return run(
                        global,
                        spark.streaming(streaming),
                        false,
                        destination.inPlace ? spark::writeInPlace : spark::write);
            }
        }
        return run(global, streaming, true, destination.inPlace ? H5ad::writeInPlace : H5ad::write);
    }

    /**
     * The file to write: IN's real path with {@code --in-place} (through a link, the file it names is rewritten, not
     * the link), else {@code -o}'s, which must not be IN under another spelling, a symbolic or a hard link (a usage
     * error: the input is left untouched). A Cell Ranger input is not rewritten in place: it would stop being one.
     */
    private Path target() throws IOException {
        if (destination.inPlace) {
            if (annotationsOnly) {
                throw new ParameterException(
                        spec.commandLine(),
                        "--annotations-only with --in-place would drop IN's "
                                + "matrices; write the annotations with -o OUT");
            }
            if (H5ad.isCellRanger(input)) {
                throw new ParameterException(
                        spec.commandLine(),
                        "--in-place: " + input + " is a Cell Ranger file, "
                                + "which is not rewritten as an .h5ad; write the result with -o OUT.h5ad");
            }
            return input.toRealPath();
        }
        return GlobalOptions.output(spec, destination.output, List.of(input));
    }

    /** What the rows and columns of the result are, for the line that says what was written. */
    String shape(AnnData result) {
        return result.nObs() + " cells x " + result.nVars() + " genes";
    }

    /** What is written: {@code result}, or with {@code --annotations-only} its annotations without any matrix. */
    private AnnData written(AnnData result) {
        if (!annotationsOnly) {
            return result;
        }
        AnnData out = new AnnData(null, result.obs(), result.var()).setPending(result.pending());
        result.obsm().forEach(out::putObsm);
        result.varm().forEach(out::putVarm);
        result.obsp().forEach(out::putObsp);
        result.varp().forEach(out::putVarp);
        out.uns().putAll(result.uns());
        return out;
    }

    /**
     * Reads IN, applies the step with {@code streaming}, writes OUT with {@code writer}. {@code tracked}: X goes
     * through the block cache and the progress bar, which live in this JVM (not on Spark's executors).
     */
    private Integer run(GlobalOptions global, Streaming streaming, boolean tracked, Writer writer) throws IOException {
        long started = System.nanoTime();
        AnnData data = global.read(input);
        BlockSource file = data.x();
        if (file != null && tracked) {
            BlockSource cached = global.cache(rereadsX() && compressed(file)).cached(file);
            data.setX(global.progress(spec.commandLine().getErr()).track(cached));
        }
        AnnData result;
        try {
            // a step's Mono emits the data it made, never nothing
            result = Objects.requireNonNull(apply(data, streaming).block(), "the step's result");
            writer.write(
                            written(result),
                            output,
                            WriteOptions.DEFAULT.withCompression(compression).streamedAs(streaming))
                    .block();
        } catch (InvalidValueException e) {
            throw ErrorMessage.inFile(input, e);
        }
        global.printStats(
                spec.commandLine().getErr(),
                file == null ? 0 : file.plan(streaming.target()).size(),
                file instanceof FileMatrix m ? m.stats().blocksRead() : 0);
        spec.commandLine()
                .getOut()
                .printf("wrote %s: %s in %.1f s%n", output, shape(result), (System.nanoTime() - started) / 1e9);
        return 0;
    }
}
