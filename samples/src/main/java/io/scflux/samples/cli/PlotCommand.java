/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.samples.plot.Plot;
import io.scflux.samples.plot.PlotOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code scflux plot}: one {@link Plot} of an {@code .h5ad}'s annotations as a PNG file; X is never read. */
@Command(
        name = "plot",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Draws a PNG from what qc, hvg, pca, umap and rank-genes-groups wrote: qc, histograms of obs total_counts, "
                    + "n_genes_by_counts and pct_counts_mt (when present); hvg, var dispersions_norm and dispersions "
                    + "(seurat_v3: variances_norm and variances, against a log mean axis) against means, highly "
                    + "variable genes in colour, genes far beyond the rest drawn at the axis' edge; pca, obsm X_pca PC1 "
                    + "against PC2, coloured by --color; umap, obsm X_umap, coloured by --color (e.g. leiden) as "
                    + "sc.pl.umap; rank-genes-groups, each group's best --n-genes genes by score "
                    + "against their rank, named, as sc.pl.rank_genes_groups draws them."
        })
final class PlotCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(
            index = "0",
            paramLabel = "qc|hvg|pca|umap|rank-genes-groups",
            converter = PlotConverter.class,
            description = "The plot.")
    private Plot plot;

    @Parameters(index = "1", paramLabel = "IN", description = "The .h5ad to read.")
    private Path input;

    @Option(
            names = {"-o", "--output"},
            required = true,
            paramLabel = "OUT.png",
            description = "The PNG to write.")
    private Path output;

    @Option(
            names = "--color",
            paramLabel = "COL",
            description = "The obs column that colours the pca and umap scatters: one colour per category, or for a "
                    + "numeric column the viridis scale with a colour bar (default: one colour).")
    private String color;

    @Option(
            names = "--n-genes",
            paramLabel = "N",
            defaultValue = "20",
            description = "Genes shown per group in the rank-genes-groups plot (default: ${DEFAULT-VALUE}).")
    private int nGenes;

    @Override
    public Integer call() throws IOException {
        PlotOptions options;
        try {
            options = PlotOptions.DEFAULT.withColor(color).withNGenes(nGenes);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        Path target = GlobalOptions.output(spec, output, List.of(input)).toAbsolutePath();
        byte[] png = plot.png(GlobalOptions.of(spec).read(input), input.toString(), options);
        AtomicFile.write(target, out -> out.write(png));
        spec.commandLine().getOut().printf("wrote %s: %s plot of %s%n", output, plot.wireName(), input);
        return 0;
    }

    /** The plot's name, with the known ones in the error. */
    static final class PlotConverter implements picocli.CommandLine.ITypeConverter<Plot> {
        @Override
        public Plot convert(String value) {
            try {
                return Plot.of(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
