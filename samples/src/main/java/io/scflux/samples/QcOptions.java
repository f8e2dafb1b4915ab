package io.scflux.samples;

import io.scflux.core.anndata.AnnData;
import io.scflux.ops.QcMetrics;
import io.scflux.ops.QcMetricsOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The QC options {@code qc} and {@code preprocess} share: {@code --qc-var NAME=PREFIX} and {@code --percent-top}. */
final class QcOptions {

    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    @Option(names = "--qc-var", paramLabel = "NAME=PREFIX",
            description = "Adds bool var column NAME, true for genes whose name starts with PREFIX, and reports "
                    + "total_counts_NAME and pct_counts_NAME (repeatable; e.g. mt=MT-).")
    private Map<String, String> qcVars = new LinkedHashMap<>();

    @Option(names = "--percent-top", split = ",", paramLabel = "N",
            description = "Ranks n of the pct_counts_in_top_n_genes columns (default: 50,100,200).")
    private List<Integer> percentTop;

    /** Adds the qc variables' var columns to {@code data} and returns the options naming them. */
    QcMetricsOptions apply(AnnData data) {
        List<Integer> ranks = percentTop != null ? percentTop : QcMetricsOptions.DEFAULT_PERCENT_TOP;
        for (int n : ranks) {
            if (n < 1 || n > data.nVars()) {
                throw new ParameterException(spec.commandLine(), "--percent-top ranks must be in [1, " + data.nVars()
                        + "] (the number of genes), got " + n);
            }
        }
        for (Map.Entry<String, String> v : qcVars.entrySet()) {
            if (v.getKey().isEmpty()) {
                throw new ParameterException(spec.commandLine(), "--qc-var needs a column name before '='");
            }
            data.var().put(v.getKey(), QcMetrics.genesStartingWith(data.var(), v.getValue()));
        }
        return new QcMetricsOptions(new ArrayList<>(qcVars.keySet()), ranks, true);
    }
}
