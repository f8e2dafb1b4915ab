/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.io.WriteOptions;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import reactor.core.publisher.Mono;

/**
 * An operator command's passes on a cluster engine ({@code --engine spark}), for the run of one command. Its one
 * implementation, {@code SparkRun}, is compiled only with {@code -Pspark} and loaded by name, so that a plain build
 * neither needs nor downloads Spark.
 */
interface ClusterRun extends AutoCloseable {

    /** {@code local}'s options with the passes over X on the cluster. */
    Streaming streaming(Streaming local);

    /** Writes {@code data} to {@code target} from what the cluster's tasks wrote. */
    Mono<Void> write(AnnData data, Path target, WriteOptions options);

    /** Rewrites {@code file}, which {@code data} may read, from what the cluster's tasks wrote. */
    Mono<Void> writeInPlace(AnnData data, Path file, WriteOptions options);

    @Override
    void close();

    /**
     * A Spark run on {@code master} (null: spark-submit's, else {@code local[*]}) with the Spark settings {@code conf},
     * failing a job the cluster cannot run within {@code bound}; a usage error saying what to run when this
     * scflux.jar was built without the Spark engine or Spark is not on the class path.
     */
    static ClusterRun spark(CommandSpec spec, String master, Map<String, String> conf, Duration bound) {
        Class<?> run;
        try {
            run = Class.forName(ClusterRun.class.getPackageName() + ".SparkRun");
        } catch (ClassNotFoundException e) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--engine spark: this scflux.jar was built without the "
                            + "Spark engine; build it with mvn -Pspark -DskipTests package");
        }
        try {
            return (ClusterRun)
                    run.getDeclaredMethod("start", CommandSpec.class, String.class, Map.class, Duration.class)
                            .invoke(null, spec, master, conf, bound);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
