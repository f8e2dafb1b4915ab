/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.Backend;
import io.scflux.core.Execution;
import io.scflux.core.HostBackend;
import io.scflux.core.MemoryAccount;
import io.scflux.core.PlanTarget;
import io.scflux.core.Printable;
import io.scflux.core.Settings;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.backend.BackendChoice;
import io.scflux.core.backend.Backends;
import io.scflux.core.cache.BlockCache;
import io.scflux.io.CellRangerOptions;
import io.scflux.io.H5ad;
import io.scflux.io.WriteOptions;
import io.scflux.io.safety.FileGuard;
import io.scflux.samples.report.ErrorMessage;
import io.scflux.samples.report.Progress;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The options every command shares ({@code --threads}, {@code --chunk-nnz}, {@code --device}, {@code --progress},
 * {@code --debug}...), mixed into the root command ({@code scflux}) and inherited by every command below it, given
 * before or after the command; with what the commands make of them (the block plan, the workers, the backend, the
 * cache, the warnings) and the checks of the files a command reads and writes. A command finds them from its own spec
 * ({@link #of}), so that no command names the root command, which names them all.
 */
final class GlobalOptions {

    /** The name of this mixin in the root command's spec. */
    static final String NAME = "global";

    /**
     * Copies of a block each worker holds at once, about: the block read (and its compressed bytes), the block a
     * stage makes of it, and the next one prefetched. At {@code -Xmx64m} and the default {@code --chunk-nnz}, 4
     * workers ran and 16 ran out of memory.
     */

    /** The root command's spec (the mixee's): these options' mistakes are usage errors of {@code scflux}. */
    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    @Option(
            names = "--threads",
            paramLabel = "N",
            scope = ScopeType.INHERIT,
            description = "Workers decoding and folding blocks (default: this machine's cores, ${DEFAULT-VALUE}), "
                    + "by default fewer where the heap would not hold their blocks. Results do not depend on it.")
    private int threads = Runtime.getRuntime().availableProcessors();

    @Option(
            names = "--chunk-nnz",
            paramLabel = "N",
            defaultValue = "" + PlanTarget.DEFAULT_CHUNK_NNZ,
            scope = ScopeType.INHERIT,
            description = "About this many nonzeros per row block (default: ${DEFAULT-VALUE}).")
    private long chunkNnz;

    @Option(
            names = "--device",
            paramLabel = "auto|cpu|cuda",
            defaultValue = "auto",
            scope = ScopeType.INHERIT,
            converter = DeviceConverter.class,
            description = "Where operators compute: a CUDA GPU when one is usable (auto, the default; else the host, "
                    + "said in one line), the host (cpu) or a CUDA GPU or an error (cuda).")
    private BackendChoice device;

    @Option(
            names = "--device-mem-mb",
            paramLabel = "N",
            scope = ScopeType.INHERIT,
            description = "Cap on the device memory the GPU's buffers may take, in MiB (default: no cap); blocks "
                    + "are cut smaller so that they fit.")
    private @Nullable Long deviceMemMb;

    @Option(
            names = "--progress",
            scope = ScopeType.INHERIT,
            description = "Show progress on stderr, a line per pass over X, numbered and named for what it computes: "
                    + "[3 hvg] 62%% 2,806/4,638 blocks 61k rows/s ETA 0:04.")
    private boolean progress;

    @Option(names = "--debug", scope = ScopeType.INHERIT, description = "Print stack traces of errors.")
    private boolean debug;

    @Option(
            names = {"-v", "--verbose"},
            scope = ScopeType.INHERIT,
            description = "Also log on stderr what a run does (the device chosen, a CSC input's row-major copy, a "
                    + "step's extra pass); -vv: with details (debug).")
    private boolean[] verbose = new boolean[0];

    @Option(
            names = {"-q", "--quiet"},
            scope = ScopeType.INHERIT,
            description = "Print only errors on stderr (no warnings).")
    private boolean quiet;

    @Option(
            names = "--cache-mb",
            paramLabel = "N",
            scope = ScopeType.INHERIT,
            description = "Budget of the cache of decoded blocks that passes over the same data share, in MiB "
                    + "(default: an eighth of the maximum heap for commands that read a compressed X several times, else 0). "
                    + "Results do not depend on it.")
    private @Nullable Long cacheMb;

    @Option(
            names = "--stats",
            scope = ScopeType.INHERIT,
            description = "Print one JSON line of block and cache statistics on stderr at the end.")
    private boolean stats;

    @Option(
            names = "--all-features",
            scope = ScopeType.INHERIT,
            description = "A Cell Ranger input keeps every feature type (default: Gene Expression only, as scanpy's "
                    + "read_10x_h5).")
    private boolean allFeatures;

    @Option(
            names = "--genome",
            paramLabel = "NAME",
            scope = ScopeType.INHERIT,
            description = "A Cell Ranger input keeps the features of this genome (needed for a Cell Ranger 2 file of "
                    + "several genomes).")
    private @Nullable String genome;

    /** Made by {@link #cache} when a command asks for it. */
    private @Nullable BlockCache cache;

    /** Chosen by {@link #backend} when a command asks for it. */
    private @Nullable Backend backend;
    /** What the environment set ({@link Environment#settings}), read once before the command runs. */
    private Settings settings = Settings.DEFAULT;

    /**
     * The container of {@code file}, an {@code .h5ad} or a Cell Ranger {@code .h5} (read with {@code --all-features}
     * and {@code --genome}); an I/O error when it is not a readable file.
     */
    AnnData read(Path file) throws IOException {
        return H5ad.read(readable(file), cellRanger(), settings);
    }

    /** Makes {@code s} the settings of every run of this command line: called once, before the command runs. */
    void useSettings(Settings s) {
        settings = s;
        MemoryAccount.useHostBudget(s.memoryBudgetBytes());
    }

    /** The settings the environment set, passed to every file this command line opens and writes. */
    Settings settings() {
        return settings;
    }

    /**
     * How the command writes its output: {@code compression}, blocks cut for {@code plan} and streamed on
     * {@code --threads} workers, under the environment's settings.
     */
    WriteOptions writeOptions(WriteOptions.Compression compression, PlanTarget plan) {
        return WriteOptions.DEFAULT
                .withCompression(compression)
                .withPlan(plan)
                .withExecution(execution())
                .withSettings(settings);
    }

    /** How a Cell Ranger input is read: {@code --all-features}, {@code --genome}. */
    CellRangerOptions cellRanger() {
        CellRangerOptions options = genome == null || genome.isEmpty()
                ? CellRangerOptions.defaults()
                : CellRangerOptions.defaults().withGenome(genome);
        return allFeatures ? options.withAllFeatures() : options;
    }

    /** The block plan constants of {@code --chunk-nnz}. */
    PlanTarget planTarget() {
        if (chunkNnz < 1 || chunkNnz > PlanTarget.MAX_CHUNK_NNZ) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--chunk-nnz must be in [1, " + PlanTarget.MAX_CHUNK_NNZ + "], got " + chunkNnz);
        }
        return PlanTarget.ofChunkNnz(chunkNnz);
    }

    /**
     * The workers of {@code --threads}, each holding about {@link Execution#BLOCK_COPIES} copies of a block of
     * {@code --chunk-nnz} entries: as many as fit half the memory budget (the other half for obs, var, the cache and
     * a step's accumulators). Given, more than that is a usage error; by default, this machine's cores, lowered to
     * what fits (results do not depend on it).
     */
    Execution execution() {
        if (threads < 1) {
            throw new ParameterException(spec.commandLine(), "--threads must be at least 1, got " + threads);
        }
        long perThread = Execution.bytesPerWorker(planTarget());
        int fit = Execution.fitting(planTarget());
        if (!given("--threads")) {
            return Execution.threads((int) Math.min(threads, fit));
        }
        if (threads > fit) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--threads " + threads + " would hold about "
                            + (threads * perThread >> 20) + " MiB of blocks in flight (" + (perThread >> 20)
                            + " MiB each at "
                            + "--chunk-nnz " + chunkNnz + "), more than a "
                            + (Runtime.getRuntime().maxMemory() >> 20)
                            + " MiB heap allows (" + fit
                            + " threads): lower --threads or --chunk-nnz, or give a larger heap ("
                            + ErrorMessage.largerHeap(threads * perThread * 4) + ")");
        }
        return Execution.threads(threads);
    }

    /** Whether {@code option}, one of the options every command shares, was given (before or after the command). */
    private boolean given(String option) {
        for (ParseResult r = spec.commandLine().getParseResult(); r != null; r = r.subcommand()) {
            if (r.hasMatchedOption(option)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The backend of {@code --device}, chosen once per run: {@code auto} without a usable GPU logs why (seen with
     * {@code -v}); {@code cuda} without one is an error.
     */
    Backend backend() {
        if (backend == null) {
            if (deviceMemMb != null && deviceMemMb < 1) {
                throw new ParameterException(
                        spec.commandLine(), "--device-mem-mb must be at least 1, got " + deviceMemMb);
            }
            long cap = deviceMemMb == null ? Long.MAX_VALUE : deviceMemMb << 20;
            try {
                backend = Backends.select(device, cap);
            } catch (IllegalStateException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
        return backend;
    }

    /** How an operator streams X: {@code --chunk-nnz} (cut smaller to fit a device), {@code --threads}, the backend. */
    Streaming streaming(PrintWriter err) {
        Backend b = backend();
        return new Streaming(b.target(planTarget()), execution(), b)
                .withWarnings(warnings(err))
                .withSettings(settings);
    }

    /**
     * Prints a step's warning as one line on {@code err}, {@code scflux: warning: <message>}, unless
     * {@code --quiet}.
     */
    Consumer<String> warnings(PrintWriter err) {
        return message -> {
            if (!quiet()) {
                err.println("scflux: warning: " + Printable.escape(message));
                err.flush();
            }
        };
    }

    /** {@code --quiet}: errors only. */
    boolean quiet() {
        return verbosity() < 0;
    }

    /**
     * How much is logged: -1 with {@code --quiet}, else the number of {@code -v}; the two together are a usage
     * error.
     */
    int verbosity() {
        if (verbose.length > 0 && quiet) {
            throw new ParameterException(spec.commandLine(), "--verbose and --quiet contradict each other: give one");
        }
        return quiet ? -1 : verbose.length;
    }

    /**
     * The block cache of {@code --cache-mb}, one per run. Without the option, an eighth of the heap when the command
     * reads a compressed input several times ({@code rereads}), else none: packing blocks for a single pass, or
     * keeping blocks that are cheap to read again, costs more than reading them again.
     */
    BlockCache cache(boolean rereads) {
        if (cache == null) {
            long mb = cacheMb != null ? cacheMb : rereads ? Runtime.getRuntime().maxMemory() / 8 / (1 << 20) : 0;
            if (mb < 0) {
                throw new ParameterException(spec.commandLine(), "--cache-mb must be at least 0, got " + mb);
            }
            long budget = MemoryAccount.host().cap() >> 20;
            if (mb > budget) {
                throw new ParameterException(
                        spec.commandLine(),
                        "--cache-mb " + mb + " is more than a "
                                + (Runtime.getRuntime().maxMemory() >> 20) + " MiB heap allows (its memory budget, "
                                + budget
                                + " MiB, holds the cache and the blocks in flight): lower --cache-mb, or give a larger heap ("
                                + ErrorMessage.largerHeap((mb << 20) * 4) + ")");
            }
            cache = BlockCache.ofMegabytes(mb);
        }
        return cache;
    }

    /**
     * With {@code --stats}, prints one JSON line on {@code err}: the blocks in the plan of the input's X, the block
     * reads that went to the file (all passes), and the cache's hits, misses, evictions and bytes.
     */
    void printStats(PrintWriter err, long blocks, long blocksReadFromFile) {
        if (stats) {
            err.println("{\"blocks\": " + blocks + ", \"blocks_read_from_file\": " + blocksReadFromFile
                    + ", \"cache\": "
                    + (cache != null ? cache : BlockCache.ofBytes(0)).stats().toJson()
                    + ", \"device\": " + deviceJson() + "}");
            err.flush();
        }
    }

    /** The backend that ran (the host when none was needed), its reserved and peak bytes and its cap (null: none). */
    private String deviceJson() {
        Backend b = backend != null ? backend : HostBackend.INSTANCE;
        MemoryAccount m = b.memory();
        return "{\"backend\": \"" + b.name() + "\", \"reserved\": " + m.reserved() + ", \"peak\": " + m.peak()
                + ", \"cap\": " + (m.cap() == Long.MAX_VALUE ? "null" : m.cap()) + "}";
    }

    /** {@code --device}'s value, case-insensitive, with the accepted names in the error. */
    static final class DeviceConverter implements CommandLine.ITypeConverter<BackendChoice> {
        @Override
        public BackendChoice convert(String value) {
            try {
                return BackendChoice.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** The progress bar of {@code --progress} on {@code err}, or one that shows nothing. */
    Progress progress(PrintWriter err) {
        return progress ? Progress.to(err) : Progress.NONE;
    }

    /** {@code file} if it is a readable regular file, else the I/O error that says why not. */
    static Path readable(Path file) throws IOException {
        IOException notAnInput = FileGuard.notAnInput(file);
        if (notAnInput != null) {
            throw notAnInput;
        }
        if (!Files.isReadable(file)) {
            throw new AccessDeniedException(file.toString());
        }
        return file;
    }

    /**
     * {@code out}, the .h5ad or plot a command is to write ({@code -o}), checked as {@link #target} checks it; a
     * name that looks like a table's is warned about.
     */
    static Path output(CommandSpec spec, Path out, List<Path> inputs) {
        target(spec, "-o", out, inputs);
        String name =
                out.getFileName() == null ? "" : out.getFileName().toString().toLowerCase(Locale.ROOT);
        for (String table : new String[] {".csv", ".tsv", ".txt", ".xlsx"}) {
            if (name.endsWith(table)) {
                of(spec).warnings(spec.commandLine().getErr())
                        .accept("-o " + out + " names a " + table + " file, but scflux writes an .h5ad (HDF5) there");
            }
        }
        return out;
    }

    /**
     * {@code file}, which {@code option} names for a command to write, checked before any work: a regular file or a
     * new name (not a folder, a FIFO or a device, which the rename ending a write would replace), and none of
     * {@code inputs} under another spelling or through a symbolic or hard link. Each is a usage error that leaves
     * the file as it is: {@code --in-place} is how an input is rewritten.
     */
    static Path target(CommandSpec spec, String option, Path file, List<Path> inputs) {
        try {
            FileGuard.checkOutput(file);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), option + " " + e.getMessage(), e);
        }
        FileGuard.readFrom(file, inputs).ifPresent(in -> {
            throw new ParameterException(
                    spec.commandLine(),
                    option + " " + file + " is the input " + in
                            + " itself; write elsewhere"
                            + (inputs.size() == 1 && "-o".equals(option) ? ", or use --in-place to rewrite it" : ""));
        });
        return file;
    }

    /** The global options of the command that {@code spec} describes (the root or any command below it). */
    static GlobalOptions of(CommandSpec spec) {
        // the root command, Scflux, always has this mixin: it is made with it
        return (GlobalOptions)
                Objects.requireNonNull(spec.root().mixins().get(NAME), "the root command's global options")
                        .userObject();
    }

    /** {@code --debug}: an error's stack trace is printed. */
    boolean debug() {
        return debug;
    }
}
