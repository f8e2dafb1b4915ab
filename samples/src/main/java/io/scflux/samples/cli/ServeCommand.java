/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.samples.service.Service;
import io.scflux.samples.service.ServiceOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * {@code scflux serve}: the HTTP service of {@link Service} on a data folder, until the process is stopped (or the
 * thread that runs it is interrupted). Its first line of output is the URL with the token, as Jupyter prints it.
 */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Serves the .h5ad files of a data folder over HTTP: POST /jobs runs operators (qc, normalize, "
                    + "log1p, hvg, pca, pseudobulk) into a new file of the folder, GET /jobs/ID/events follows them "
                    + "(Server-Sent Events), GET /jobs/ID/result downloads the output, GET /jobs/ID/page shows its "
                    + "plots (PNG at GET /jobs/ID/plots/qc|hvg|pca.png?color=COL), DELETE /jobs/ID cancels, "
                    + "GET /datasets/NAME/obs streams obs as NDJSON, GET /metrics gives the Prometheus metrics, "
                    + "GET / lists the datasets. Every error is an application/problem+json document.",
            "Every request needs the token: Authorization: Bearer TOKEN, or ?token=TOKEN once in a browser (it sets "
                    + "a cookie); the first line printed is the URL with it. A request from another origin is refused.",
            "Jobs share one block cache of --cache-mb (default: an eighth of the heap)."
        })
final class ServeCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--data", required = true, paramLabel = "DIR", description = "The folder of .h5ad files.")
    private Path data;

    @Option(names = "--port", required = true, paramLabel = "N", description = "The TCP port (0: any free one).")
    private int port;

    @Option(
            names = "--host",
            paramLabel = "HOST",
            defaultValue = "127.0.0.1",
            description = "The address to listen on (default: ${DEFAULT-VALUE}).")
    private String host;

    @Option(
            names = "--max-jobs",
            paramLabel = "N",
            defaultValue = "2",
            description = "Jobs running at once, the others queued (default: ${DEFAULT-VALUE}).")
    private int maxJobs;

    @Option(
            names = "--keep-jobs",
            paramLabel = "N",
            defaultValue = "1000",
            description = "Ended jobs remembered (events, result, page), the oldest forgotten beyond; their outputs "
                    + "stay in the data folder, under --max-results-mb (default: ${DEFAULT-VALUE}).")
    private int keepJobs;

    @Option(
            names = "--token",
            paramLabel = "TOKEN",
            defaultValue = "${env:SCFLUX_TOKEN}",
            description = "The token every request must carry: at least 16 characters, each a letter, a digit or one "
                    + "of . _ ~ - (default: the environment variable SCFLUX_TOKEN, else 256 random bits). The first "
                    + "line printed is the URL with it.")
    private String token;

    @Option(
            names = "--max-body",
            paramLabel = "SIZE",
            defaultValue = "1M",
            converter = ByteSizeOption.class,
            description = "The largest request body read, in bytes or with a unit K, M or G (powers of 1024); a larger "
                    + "one is answered 413 without being read (default: ${DEFAULT-VALUE}).")
    private long maxBody;

    @Option(
            names = "--max-results-mb",
            paramLabel = "N",
            defaultValue = "10240",
            description = "The most the results this server writes into the data folder may take together, in MiB; "
                    + "beyond, the oldest are deleted (their routes answer 410), and a job whose output, estimated "
                    + "from its input, would not fit fails before it starts. Inputs and other files are never "
                    + "deleted. 0: no limit (default: ${DEFAULT-VALUE}).")
    private long maxResultsMb;

    @Override
    public Integer call() throws IOException {
        ServiceOptions options;
        try {
            if (maxResultsMb > Long.MAX_VALUE >> 20) {
                throw new IllegalArgumentException("--max-results-mb is too large: " + maxResultsMb);
            }
            options = new ServiceOptions(host, port, maxJobs, keepJobs, token, maxBody, maxResultsMb << 20);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (!Files.isDirectory(data)) {
            throw new NotDirectoryException(data.toString());
        }
        Scheduler work = Schedulers.newBoundedElastic(maxJobs, Integer.MAX_VALUE, "scflux-jobs");
        GlobalOptions global = GlobalOptions.of(spec);
        Service service = Service.start(
                data, options, work, global.streaming(spec.commandLine().getErr()), global.cache(true));
        try {
            spec.commandLine().getOut().println(service.url());
            spec.commandLine()
                    .getOut()
                    .printf(
                            "scflux serve: the datasets of %s; every request needs the token of " + "the URL above%n",
                            data.toAbsolutePath());
            spec.commandLine().getOut().flush();
            service.onDispose().block();
        } finally {
            service.dispose();
            work.dispose();
        }
        return 0;
    }
}
