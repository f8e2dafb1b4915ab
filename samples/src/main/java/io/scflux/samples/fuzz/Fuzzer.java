/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.fuzz;

import io.scflux.core.BlockSource;
import io.scflux.core.InvalidValueException;
import io.scflux.core.MemoryBudgetExceededException;
import io.scflux.core.RowBlock;
import io.scflux.core.ScfluxFormatException;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.io.H5ad;
import io.scflux.ops.Pp;
import io.scflux.ops.qc.QcMetricsOptions;
import io.scflux.samples.report.ErrorMessage;
import io.scflux.samples.report.Summary;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * Damages real {@code .h5ad} files ({@link Mutation}) and reads each damaged copy as a user would — its metadata
 * ({@code info}), a full scan of X's blocks, and {@code calculate_qc_metrics} — counting how each case ends
 * ({@link FuzzOutcome}). Case {@code i} of seed {@code s} is always the same damage, so a defect can be replayed.
 */
public final class Fuzzer implements AutoCloseable {

    /** One case that ended in a defect: enough to replay it. */
    record Defect(int index, Path base, @Nullable Mutation mutation, long caseSeed, FuzzOutcome outcome, String what) {
        @Override
        public String toString() {
            return "case " + index + " (" + base.getFileName() + ", " + mutation + ", case seed " + caseSeed + "): "
                    + outcome + ": " + what;
        }
    }

    /** How the cases of a run ended: counts by outcome, and the defects. */
    public static final class Report {

        private final Map<FuzzOutcome, Integer> counts;
        private final List<Defect> defects;

        private Report(Map<FuzzOutcome, Integer> counts, List<Defect> defects) {
            this.counts = counts;
            this.defects = defects;
        }

        Map<FuzzOutcome, Integer> counts() {
            return counts;
        }

        List<Defect> defects() {
            return defects;
        }

        /** The cases run. */
        public int cases() {
            return counts.values().stream().mapToInt(Integer::intValue).sum();
        }

        /** Whether a case ended in a defect. */
        public boolean hasDefects() {
            return !defects.isEmpty();
        }

        /** One line per outcome with its count (zeros included), then one per defect with what replays it. */
        public void print(PrintWriter out) {
            for (FuzzOutcome o : FuzzOutcome.values()) {
                out.printf("%-18s %d%n", o.name().toLowerCase(Locale.ROOT), counts.getOrDefault(o, 0));
            }
            defects.forEach(d -> out.println("defect: " + d));
        }
    }

    /** An intact file and its layout. */
    private record Base(Path file, byte[] bytes, FileLayout layout) {}

    private final List<Base> bases = new ArrayList<>();
    private final Path workDir;
    private final Duration limit;
    private ExecutorService worker = newWorker();

    /** A fuzzer over intact {@code files}, writing damaged copies in {@code workDir}, each case given {@code limit}. */
    public Fuzzer(List<Path> files, Path workDir, Duration limit) {
        for (Path f : files) {
            try {
                byte[] bytes = Files.readAllBytes(f);
                FileLayout layout = FileLayout.of(f, bytes);
                bases.add(new Base(f, bytes, layout));
            } catch (IOException e) {
                throw new UncheckedIOException(f + ": cannot read: " + e.getMessage(), e);
            }
        }
        if (bases.isEmpty()) {
            throw new IllegalArgumentException("no files to fuzz");
        }
        this.workDir = workDir;
        this.limit = limit;
    }

    /** Reads the intact files: each should be {@link FuzzOutcome#READ}; any other ending is listed as a defect. */
    Report intact() {
        Map<FuzzOutcome, Integer> counts = new EnumMap<>(FuzzOutcome.class);
        List<Defect> defects = new ArrayList<>();
        for (int i = 0; i < bases.size(); i++) {
            Base base = bases.get(i);
            String[] what = new String[1];
            FuzzOutcome outcome = runCase(base.file, base.layout.matrixOnly, what);
            counts.merge(outcome, 1, Integer::sum);
            if (outcome != FuzzOutcome.READ) {
                defects.add(new Defect(i, base.file, null, 0, outcome, what[0]));
            }
        }
        return new Report(counts, defects);
    }

    /** Runs cases {@code 0 .. cases-1} of {@code seed}. */
    public Report run(long seed, int cases) {
        Map<FuzzOutcome, Integer> counts = new EnumMap<>(FuzzOutcome.class);
        List<Defect> defects = new ArrayList<>();
        try {
            for (int i = 0; i < cases; i++) {
                Case c = prepare(seed, i);
                Path file = workDir.resolve("fuzz-" + i + ".h5ad");
                Files.write(file, c.bytes);
                String[] what = new String[1];
                FuzzOutcome outcome = runCase(file, c.base.layout.matrixOnly, what);
                counts.merge(outcome, 1, Integer::sum);
                if (outcome.isDefect()) {
                    defects.add(new Defect(i, c.base.file, c.mutation, c.seed, outcome, what[0]));
                }
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(workDir + ": " + e.getMessage(), e);
        }
        return new Report(counts, defects);
    }

    /**
     * Case {@code index} of {@code seed} alone: writes its damaged file to {@code copy} and reads it in this thread,
     * printing on {@code out} the file it damages and how, then {@code read} or the stack trace of the failure.
     */
    public void replay(long seed, int index, Path copy, PrintWriter out) {
        Case c = prepare(seed, index);
        out.println("case " + index + " of seed " + seed + ": " + c.base.file + ", " + c.mutation + " -> " + copy);
        try {
            Files.write(copy, c.bytes);
            exercise(copy, c.base.layout.matrixOnly);
            out.println("read");
        } catch (Throwable t) {
            t.printStackTrace(out);
        }
    }

    /** Case {@code i} of {@code seed}: the file it damages, how, and the damaged bytes. */
    private Case prepare(long seed, int i) {
        Base base = bases.get(i % bases.size());
        Mutation[] mutations = Mutation.values();
        long caseSeed = new SplittableRandom(seed + i).nextLong();
        SplittableRandom random = new SplittableRandom(caseSeed);
        Mutation m = mutations[(i / bases.size()) % mutations.length];
        byte[] damaged = m.apply(base.bytes, base.layout, random);
        if (damaged == null) { // nothing to aim at: damage anywhere instead
            m = Mutation.ANY_RUN;
            damaged = Objects.requireNonNull(
                    m.apply(base.bytes, base.layout, random), "ANY_RUN aims at the whole file, never null");
        }
        return new Case(base, m, caseSeed, damaged);
    }

    /** One prepared case. */
    private record Case(Base base, Mutation mutation, long seed, byte[] bytes) {}

    /** Stops the worker thread (one stuck in a timed-out case included). */
    @Override
    public void close() {
        worker.shutdownNow();
    }

    private FuzzOutcome runCase(Path file, boolean matrixOnly, String[] what) {
        Future<?> f = worker.submit(() -> {
            exercise(file, matrixOnly);
            return null;
        });
        try {
            f.get(limit.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            return FuzzOutcome.READ;
        } catch (TimeoutException e) {
            f.cancel(true);
            worker.shutdownNow();
            worker = newWorker();
            what[0] = "no end within " + limit.toSeconds() + " s";
            return FuzzOutcome.TIMEOUT;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            // a FutureTask's ExecutionException always carries what the task threw
            Throwable c = Objects.requireNonNull(e.getCause(), "the task's failure");
            what[0] = String.valueOf(c);
            if (c instanceof ScfluxFormatException) {
                return FuzzOutcome.REJECTED;
            }
            if (c instanceof MemoryBudgetExceededException) {
                return FuzzOutcome.REFUSED_TOO_LARGE;
            }
            if (c instanceof OutOfMemoryError) {
                return FuzzOutcome.OUT_OF_MEMORY;
            }
            StackTraceElement[] st = c.getStackTrace();
            what[0] = c + (st.length > 0 ? " at " + st[0] : "");
            return FuzzOutcome.UNCLEAR_ERROR;
        }
    }

    /**
     * What a user does with a file: read it ({@code info}: its {@link Summary}) and its names (decoded when first asked for), scan X,
     * compute QC metrics (values that are not counts are refused as {@code scflux qc} refuses them: rejected). A {@code matrixOnly} file is opened as its {@code /X} element.
     */
    static void exercise(Path file, boolean matrixOnly) {
        AnnData data = matrixOnly ? AnnData.of(H5ad.openMatrix(file, "/X")) : H5ad.read(file);
        Summary.of(data);
        data.obs().names();
        data.var().names();
        BlockSource x = data.x();
        if (x == null) {
            return;
        }
        Streaming streaming = Streaming.DEFAULT;
        streaming.blocks(x).doOnNext(b -> check(b, x)).blockLast();
        Integer[] top = QcMetricsOptions.DEFAULT_PERCENT_TOP.stream()
                .filter(n -> n <= x.nCols())
                .toArray(Integer[]::new);
        try {
            Pp.calculateQcMetrics(data, QcMetricsOptions.defaults().withPercentTop(top), streaming)
                    .block();
        } catch (InvalidValueException e) {
            throw ErrorMessage.inFile(file, e); // what `scflux qc` says: values that are not counts, named
        }
    }

    /** A block the reader emits must be well formed whatever the file held. */
    private static void check(RowBlock b, BlockSource x) {
        int[] ip = b.indptr();
        int[] idx = b.indices();
        if (ip[0] != 0) {
            throw new IllegalStateException("block " + b.blockIndex() + ": indptr starts at " + ip[0]);
        }
        for (int r = 0; r < b.nRows(); r++) {
            if (ip[r + 1] < ip[r]) {
                throw new IllegalStateException("block " + b.blockIndex() + ": indptr decreases at row " + r);
            }
        }
        for (int k = 0; k < b.nnz(); k++) {
            if (idx[k] < 0 || idx[k] >= x.nCols()) {
                throw new IllegalStateException("block " + b.blockIndex() + ": column " + idx[k] + " out of range");
            }
        }
    }

    private static ExecutorService newWorker() {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "scflux-fuzz");
            t.setDaemon(true);
            return t;
        });
    }
}
