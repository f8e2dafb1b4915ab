/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.io.H5ad;
import io.scflux.io.WriteOptions;
import io.scflux.samples.synth.SynthSpec;
import io.scflux.samples.synth.SyntheticCounts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code scflux synth}: writes realistic synthetic counts ({@link SyntheticCounts}) to an {@code .h5ad}, streaming. */
@Command(
        name = "synth",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Writes realistic single-cell counts to an .h5ad without holding the matrix: negative "
                    + "binomial counts with cell-type gene programs, donor effects, per-cell library sizes and 13 MT- "
                    + "genes; obs 'sample' and 'cell_type' (categorical), var 'gene_ids'.",
            "The data depend only on the options (not on --threads or --chunk-nnz)."
        })
final class SynthCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--cells", required = true, paramLabel = "N", description = "Cells (rows).")
    private int cells;

    @Option(names = "--genes", required = true, paramLabel = "G", description = "Genes (columns), at least 14.")
    private int genes;

    @Option(
            names = "--nnz-per-cell",
            paramLabel = "K",
            description = "Mean nonzeros per cell, at most G / 2 (default: 400, or G / 5 when fewer).")
    private Double nnzPerCell;

    @Option(
            names = "--donors",
            paramLabel = "D",
            defaultValue = "" + SynthSpec.DEFAULT_DONORS,
            description = "Donors, obs 'sample' D01... (default: ${DEFAULT-VALUE}).")
    private int donors;

    @Option(
            names = "--cell-types",
            paramLabel = "T",
            defaultValue = "" + SynthSpec.DEFAULT_CELL_TYPES,
            description = "Cell types, obs 'cell_type' T01... (default: ${DEFAULT-VALUE}).")
    private int cellTypes;

    @Option(
            names = "--seed",
            paramLabel = "S",
            defaultValue = "" + SynthSpec.DEFAULT_SEED,
            description = "Random seed (default: ${DEFAULT-VALUE}).")
    private long seed;

    @Option(
            names = "--compression",
            paramLabel = "none|gzip",
            defaultValue = "none",
            description = "Compression of the matrix datasets (default: ${DEFAULT-VALUE}).")
    private WriteOptions.Compression compression;

    @Option(
            names = "--format",
            paramLabel = "h5ad|cellranger",
            defaultValue = "h5ad",
            description = "h5ad (the default), or cellranger: Cell Ranger 3's HDF5 feature-barcode matrix "
                    + "(filtered_feature_bc_matrix.h5: int32 counts, barcodes, features; obs and var columns are not "
                    + "part of that format).")
    private Format format;

    /** The file formats synth writes. */
    enum Format {
        H5AD,
        CELLRANGER
    }

    @Option(
            names = {"-o", "--output"},
            required = true,
            paramLabel = "FILE",
            description = "The file to write.")
    private Path output;

    @Override
    public Integer call() throws IOException {
        GlobalOptions global = GlobalOptions.of(spec);
        SynthSpec synth;
        try {
            synth = new SynthSpec(
                    cells,
                    genes,
                    nnzPerCell != null ? nnzPerCell : SynthSpec.defaultNnzPerCell(genes),
                    donors,
                    cellTypes,
                    seed);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        GlobalOptions.output(spec, output, List.of());
        WriteOptions options = global.writeOptions(compression, global.planTarget());
        long started = System.nanoTime();
        SyntheticCounts counts = new SyntheticCounts(synth);
        AnnData data = counts.anndata();
        data.setX(global.progress(spec.commandLine().getErr()).track(counts));
        if (format == Format.CELLRANGER) {
            String[] genome = new String[genes];
            Arrays.fill(genome, "GRCh38"); // the human-like reference the MT- genes suggest
            data.var().put("genome", CategoricalColumn.fromValues(genome));
            H5ad.writeCellRanger(data, output, options).block();
        } else {
            H5ad.write(data, output, options).block();
        }
        spec.commandLine()
                .getOut()
                .printf(
                        "wrote %s: %d cells x %d genes in %.1f s%n",
                        output, cells, genes, (System.nanoTime() - started) / 1e9);
        global.printStats(
                spec.commandLine().getErr(), counts.plan(options.plan()).size(), 0);
        return 0;
    }
}
