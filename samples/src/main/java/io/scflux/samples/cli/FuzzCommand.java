/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.samples.fuzz.Fuzzer;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code scflux fuzz}: damages copies of real files and reads each, counting how every case ends ({@link Fuzzer}). */
@Command(
        name = "fuzz",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Damages copies of FILEs (bit flips and byte runs in headers, indexes and data, truncations, "
                    + "broken indptr/indices/shape) and reads each copy: metadata, a scan of X and QC metrics. Prints "
                    + "the count of cases by outcome and every defect (an unclear exception, an OutOfMemoryError or a "
                    + "case past the time limit), with what replays it; exits 1 when there is one.",
            "Case i of a seed is always the same damage."
        })
final class FuzzCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Intact .h5ad files to damage.")
    private List<Path> files;

    @Option(
            names = "--cases",
            paramLabel = "N",
            defaultValue = "10000",
            description = "Cases (default: ${DEFAULT-VALUE}).")
    private int cases;

    @Option(
            names = "--seed",
            paramLabel = "S",
            defaultValue = "20261129",
            description = "Seed (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(
            names = "--time-limit",
            paramLabel = "SECONDS",
            defaultValue = "60",
            description = "Time allowed per case (default: ${DEFAULT-VALUE}).")
    private long timeLimit;

    @Option(
            names = "--replay",
            paramLabel = "I",
            description = "Only case I: write its damaged file to fuzz-case-I.h5ad here, read it in this thread and "
                    + "print how it ends, with the stack trace of any failure.")
    private Integer replay;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        if (replay != null && replay < 0) {
            throw new ParameterException(
                    spec.commandLine(), "--replay must be a case number, at least 0, got " + replay);
        }
        if (cases < 1 || timeLimit < 1) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--cases and --time-limit must be at least 1, got " + cases + " and " + timeLimit);
        }
        List<Path> readable = readable();
        Path work = Files.createTempDirectory("scflux-fuzz");
        try {
            return replay != null ? replay(out, readable, work) : run(out, readable, work);
        } finally {
            try (Stream<Path> left = Files.walk(work)) { // a case still running at its time limit leaves its file
                for (Path p : left.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private int run(PrintWriter out, List<Path> readable, Path work) {
        Fuzzer.Report report;
        try (Fuzzer fuzzer = new Fuzzer(readable, work, Duration.ofSeconds(timeLimit))) {
            report = fuzzer.run(seed, cases);
        }
        out.println("fuzz: " + report.cases() + " cases, seed " + seed);
        report.print(out);
        out.flush();
        return report.hasDefects() ? 1 : 0;
    }

    private int replay(PrintWriter out, List<Path> readable, Path work) {
        try (Fuzzer fuzzer = new Fuzzer(readable, work, Duration.ZERO)) {
            fuzzer.replay(seed, replay, Path.of("fuzz-case-" + replay + ".h5ad"), out);
        }
        out.flush();
        return 0;
    }

    private List<Path> readable() throws IOException {
        List<Path> readable = new java.util.ArrayList<>();
        for (Path f : files) {
            readable.add(GlobalOptions.readable(f));
        }
        return readable;
    }
}
