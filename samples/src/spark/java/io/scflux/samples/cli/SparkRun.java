package io.scflux.samples.cli;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.HostBackend;
import io.scflux.io.WriteOptions;
import io.scflux.spark.SparkEngine;
import io.scflux.spark.SparkWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import reactor.core.publisher.Mono;

/**
 * An operator command on {@code --engine spark}: a Spark context for the run, the passes over X on it (host backend),
 * and the result written from the tasks' part files. Loaded by {@link ClusterRun#spark} only when asked for, so that
 * scflux.jar runs without Spark.
 */
final class SparkRun implements ClusterRun {

    private final SparkEngine engine;

    private SparkRun(SparkEngine engine) {
        this.engine = engine;
    }

    /**
     * A Spark context on {@code master} (null: spark-submit's, else local[*]) with the settings {@code conf}, giving
     * up on a cluster that runs nothing for {@code bound}; a usage error naming what to run when Spark's classes are
     * not on the class path.
     */
    static SparkRun start(CommandSpec spec, String master, Map<String, String> conf, Duration bound) {
        try {
            Class.forName("org.apache.spark.api.java.JavaSparkContext", false, SparkRun.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new ParameterException(spec.commandLine(), "--engine spark needs Apache Spark on the class path, "
                    + "and scflux.jar has none: run samples/target/scflux-spark.jar (built beside it), or "
                    + "spark-submit --class io.scflux.samples.cli.Scflux samples/target/scflux-spark.jar ...");
        }
        return new SparkRun(SparkEngine.start(master, conf, bound));
    }

    /** {@code local} on Spark, computing on the host backend (what executors have). */
    @Override
    public Streaming streaming(Streaming local) {
        return local.withBackend(HostBackend.INSTANCE).withEngine(engine);
    }

    @Override
    public Mono<Void> write(AnnData data, Path target, WriteOptions options) {
        return SparkWriter.write(data, target, options, engine);
    }

    @Override
    public Mono<Void> writeInPlace(AnnData data, Path file, WriteOptions options) {
        return SparkWriter.writeInPlace(data, file, options, engine);
    }

    /** The engine and its master, e.g. {@code spark local[2]}. */
    @Override
    public String toString() {
        return engine.toString();
    }

    @Override
    public void close() {
        engine.close();
    }
}
