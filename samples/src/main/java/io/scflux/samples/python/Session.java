/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.python;

import io.scflux.core.BlockSource;
import io.scflux.core.Execution;
import io.scflux.core.HostBackend;
import io.scflux.core.MemoryAccount;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.Settings;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.PendingColumns;
import io.scflux.core.cache.BlockCache;
import io.scflux.io.CellRangerOptions;
import io.scflux.io.FileMatrix;
import io.scflux.io.H5ad;
import io.scflux.io.WriteOptions;
import io.scflux.ops.CatalogStep;
import io.scflux.ops.Preprocess;
import io.scflux.ops.StepCatalog;
import io.scflux.ops.normalize.NormalizeTotalOptions;
import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.qc.QcMetrics;
import io.scflux.ops.qc.QcMetricsOptions;
import io.scflux.samples.cli.Environment;
import io.scflux.samples.cli.Logging;
import io.scflux.samples.report.ErrorKind;
import io.scflux.samples.report.ErrorMessage;
import io.scflux.samples.report.StepCatalogJson;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * The engine of one Python session, in the interpreter's process: its settings (read once from the environment, as
 * the command line reads them), its workers, and one cache of decoded blocks that every pass of the session shares,
 * so that HVG then PCA over the same view read each block from the file once while the cache holds them.
 *
 * <p>Python holds the containers it gets from here ({@link #read}, {@link #run}) and gives them back to the next
 * step; obs and var travel as the frames Python builds from its pandas columns. Every call that reads X returns a
 * {@link Pass} at once, for Python to wait for in slices; the warnings of a pass wait in {@link #warnings} until
 * Python takes them.
 */
public final class Session {

    /** scanpy's name of the step whose columns ride along the next pass. */
    private static final String QC = "calculate_qc_metrics";
    /** scanpy's name of the step that fuses with a QC still riding. */
    private static final String NORMALIZE = "normalize_total";

    /**
     * A QC left riding on X by {@link #run}: the counts it folds, its options, the var its qc variables were read
     * from and the columns it left pending, for normalize_total to fuse with while both are still as QC left them.
     */
    private record QcRide(BlockSource counts, QcMetricsOptions options, Frame var, PendingColumns pending) {}

    private final Settings settings;
    private final Streaming streaming;
    private final BlockCache cache;
    private final boolean cacheEveryInput;
    private final ConcurrentLinkedQueue<String> warnings = new ConcurrentLinkedQueue<>();
    /** The QCs riding, by the folding X each left (weakly: a view Python dropped takes its ride with it). */
    private final Map<BlockSource, QcRide> rides = Collections.synchronizedMap(new WeakHashMap<>());

    private Session(Settings settings, int threads, long cacheBytes, boolean cacheEveryInput) {
        this.settings = settings;
        MemoryAccount.useHostBudget(settings.memoryBudgetBytes());
        PlanTarget target = PlanTarget.DEFAULT;
        int workers = Math.min(threads, Execution.fitting(target));
        this.streaming = new Streaming(target, Execution.threads(workers), HostBackend.INSTANCE)
                .withWarnings(warnings::add)
                .withSettings(settings);
        this.cache = BlockCache.ofBytes(cacheBytes);
        this.cacheEveryInput = cacheEveryInput;
    }

    /**
     * The session's engine, with the settings of the environment ({@code SCFLUX_CACHE_DIR}, ...).
     *
     * @param threads    the workers, at most as many as the memory budget holds blocks for; results do not depend on
     *                   it
     * @param cacheBytes the budget of the decoded-block cache; negative for an eighth of the heap, which holds the
     *                   blocks of compressed inputs only (as the command line's: keeping blocks that are cheap to
     *                   read again costs more than reading them again, measured); given, every input's blocks
     * @param verbosity  what the engine logs on stderr, as the command line's {@code --quiet} (-1), default (0),
     *                   {@code -v} (1) and {@code -vv} (2)
     * @return the engine
     */
    public static Session start(int threads, long cacheBytes, int verbosity) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        Logging.use(verbosity, false);
        long budget = cacheBytes < 0 ? Runtime.getRuntime().maxMemory() / 8 : cacheBytes;
        return new Session(Environment.settings(), threads, budget, cacheBytes >= 0);
    }

    /** @return the workers passes run on */
    public int threads() {
        return streaming.execution().threads();
    }

    /**
     * Opens a file as a container: obs, var and the small elements are read now, X stays in the file and is read
     * block by block (through the session's cache) by the passes that need it.
     *
     * @param path      an {@code .h5ad} or a Cell Ranger {@code .h5}
     * @param genome    the Cell Ranger genome to keep, or null for all
     * @param gexOnly   for a Cell Ranger file, keep the "Gene Expression" features only
     * @return the container
     */
    public AnnData read(String path, @Nullable String genome, boolean gexOnly) {
        CellRangerOptions cellRanger = gexOnly
                ? CellRangerOptions.defaults()
                : CellRangerOptions.defaults().withAllFeatures();
        if (genome != null) {
            cellRanger = cellRanger.withGenome(genome);
        }
        AnnData data = H5ad.read(Path.of(path), cellRanger, settings);
        BlockSource x = data.x();
        boolean worth =
                cacheEveryInput || !(x instanceof FileMatrix m) || m.info().compressed();
        return x == null || !worth ? data : data.setX(cache.cached(x));
    }

    /**
     * Starts the catalog's step {@code function} on {@code data}, whose arguments are checked now. QC rides along:
     * its columns are left pending in the result ({@link QcMetrics#riding}) and made by the next pass that reads X;
     * {@link #complete} puts them. normalize_total right after it (X and the pending columns still QC's) fuses with
     * it as {@code preprocess} does ({@link Preprocess#qcAndNormalize}): the factors come from QC's totals as the
     * next pass reads each row, so that neither makes a pass of its own.
     *
     * @param function  scanpy's name of the step
     * @param data      the container, left as it is
     * @param arguments values by scanpy's names (numbers, booleans, strings, lists); a null value is not given
     * @return the pass, whose result is the step's container, with the columns of an earlier QC still pending when
     *     this step did not make them
     * @throws IllegalArgumentException for a name the catalog does not have
     */
    public Pass run(String function, AnnData data, Map<String, ?> arguments) {
        CatalogStep step = StepCatalog.byFunction(function);
        if (step == null || step.combines()) {
            throw new IllegalArgumentException("the step catalog has no step " + function + " of one container");
        }
        Arguments given = Arguments.of(arguments);
        CatalogStep.Bound bound = step.bind(given); // checks the arguments now, whichever call runs below
        if (function.equals(QC)) {
            QcMetricsOptions options = QcMetricsOptions.from(given);
            BlockSource counts = data.x();
            return Pass.start(QcMetrics.riding(data, options, streaming).doOnNext(out -> {
                PendingColumns pending = out.pending();
                if (out.x() != null && counts != null && out.x() != counts && pending != null) {
                    rides.put(out.x(), new QcRide(counts, options, data.var(), pending));
                }
            }));
        }
        QcRide ride = data.x() == null ? null : rides.get(data.x());
        if (function.equals(NORMALIZE) && ride != null && ride.pending() == data.pending()) {
            NormalizeTotalOptions options = NormalizeTotalOptions.from(given);
            if (!options.excludeHighlyExpressed()) {
                // QC's qc variables are read from the var it was given; the rest of the container is this step's
                AnnData counts = new AnnData(ride.counts(), data.obs(), ride.var());
                counts.uns().putAll(data.uns());
                data.layers().forEach(counts::putLayer);
                counts.setRaw(data.raw());
                return Pass.start(Preprocess.qcAndNormalize(counts, ride.options(), options, streaming)
                        .map(fused -> withVar(fused, data.var())));
            }
        }
        return Pass.start(bound.apply(data, streaming));
    }

    /** {@code fused} with {@code var}'s columns back, over the var QC's qc variables were read from. */
    private static AnnData withVar(AnnData fused, Frame var) {
        AnnData out = new AnnData(fused.x(), fused.obs(), var.copy());
        fused.layers().forEach(out::putLayer);
        out.uns().putAll(fused.uns());
        out.setRaw(fused.raw());
        return out.setPending(fused.pending());
    }

    /**
     * anndata's {@code concat} of {@code inputs} along obs, as the catalog's combining step: lazily, the result's X
     * reads each input's X in turn as its blocks are asked for.
     *
     * @param inputs    the containers, in order, none with columns pending
     * @param arguments values by anndata's names ({@code join}, {@code label}, {@code keys}, ...); checked now
     * @return the container of every input's cells
     */
    public AnnData concat(AnnData[] inputs, Map<String, ?> arguments) {
        CatalogStep step = StepCatalog.byFunction("concat");
        return Objects.requireNonNull(step, "the catalog has concat")
                .combine(Arguments.of(arguments))
                .apply(List.of(inputs));
    }

    /**
     * Starts putting the columns pending in {@code data} into its obs and var.
     *
     * @param data the container
     * @return the pass, whose result is the completed container ({@link AnnData#complete}): no pass over X when the
     *     last one made them
     */
    public Pass complete(AnnData data) {
        return Pass.start(data.complete());
    }

    /**
     * Starts writing {@code data} to {@code path}: a temporary file beside it, renamed over it when complete.
     *
     * @param data        the container
     * @param path        the {@code .h5ad} to write; refused when {@code data} still reads from it
     * @param compression whether X, layers and obsm are gzip-compressed
     * @return the pass
     */
    public Pass write(AnnData data, String path, boolean compression) {
        return Pass.start(H5ad.write(data, Path.of(path), writeOptions(compression)));
    }

    /**
     * Starts rewriting {@code path}, which {@code data} may read from, with {@code data}: the path-based calls'
     * "modify the data" ({@link H5ad#writeInPlace}: the file stays as it was until the new one is complete).
     *
     * @param data        the container, read from {@code path} or not
     * @param path        the existing {@code .h5ad} to rewrite
     * @param compression whether X, layers and obsm are gzip-compressed
     * @return the pass
     */
    public Pass writeInPlace(AnnData data, String path, boolean compression) {
        return Pass.start(H5ad.writeInPlace(data, Path.of(path), writeOptions(compression)));
    }

    private WriteOptions writeOptions(boolean compression) {
        return WriteOptions.DEFAULT
                .withCompression(compression ? WriteOptions.Compression.GZIP : WriteOptions.Compression.NONE)
                .streamedAs(streaming);
    }

    /**
     * Starts reading every entry of {@code source} into memory, as scipy's CSR arrays.
     *
     * @param source a matrix (X, a layer, a lazy obsm entry)
     * @return the pass, whose result is {@code [long[] indptr, int[] indices, float[] data]}
     */
    public Pass collect(BlockSource source) {
        return Pass.start(streaming.blocks(source).collectList().map(blocks -> {
            long[] indptr = new long[Math.toIntExact(source.nRows() + 1)];
            long nnz = 0;
            for (RowBlock b : blocks) {
                nnz += b.nnz();
            }
            int[] indices = new int[Math.toIntExact(nnz)];
            float[] values = new float[indices.length];
            int at = 0;
            for (RowBlock b : blocks) {
                int[] ip = b.indptr();
                int n = ip[b.nRows()];
                for (int r = 0; r < b.nRows(); r++) {
                    indptr[(int) (b.rowStart() + r) + 1] = at + ip[r + 1];
                }
                System.arraycopy(b.indices(), 0, indices, at, n);
                System.arraycopy(b.values(), 0, values, at, n);
                at += n;
            }
            return new Object[] {indptr, indices, values};
        }));
    }

    /**
     * Starts reading a lazy dense element (obsm {@code X_pca} before anything read it) into memory.
     *
     * @param source the element
     * @return the pass, whose result is a 2-D float32 {@link DenseArray}
     */
    public Pass dense(BlockSource source) {
        return Pass.start(Mono.fromCallable(() -> DenseArray.materialize(source)));
    }

    /** @return the warnings the passes gave since the last call, oldest first */
    public String[] warnings() {
        List<String> out = new ArrayList<>();
        for (String w = warnings.poll(); w != null; w = warnings.poll()) {
            out.add(w);
        }
        return out.toArray(String[]::new);
    }

    /** @return the cache's statistics as JSON: hits, misses, evictions, bytes */
    public String cacheStats() {
        return cache.stats().toJson();
    }

    /**
     * @param error what a pass or a call failed with
     * @return the one line the command line prints for it (file, HDF5 path, expectation)
     */
    public static String message(Throwable error) {
        return ErrorMessage.of(error);
    }

    /**
     * @param error what a pass or a call failed with
     * @return its kind as the command line names it ({@code not_found}, {@code missing_key}, ...), which Python maps
     *     to its builtin exceptions as it does the command line's
     */
    public static String kind(Throwable error) {
        return ErrorKind.of(error).wireName();
    }

    /** @return the step catalog, as {@code scflux steps --json} prints it */
    public static String catalog() {
        return StepCatalogJson.json();
    }
}
