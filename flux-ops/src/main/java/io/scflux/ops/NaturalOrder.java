package io.scflux.ops;

import java.util.Comparator;

/**
 * natsort's default order, which anndata sorts merged categories with: runs of digits compare as numbers
 * ({@code T2 < T10}), other runs as text, and a number sorts before text at the same place.
 */
final class NaturalOrder implements Comparator<String> {

    static final NaturalOrder INSTANCE = new NaturalOrder();

    private NaturalOrder() {
    }

    @Override
    public int compare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            boolean da = Character.isDigit(a.charAt(i));
            boolean db = Character.isDigit(b.charAt(j));
            int ei = run(a, i, da);
            int ej = run(b, j, db);
            int c;
            if (da && db) {
                c = compareNumbers(a.substring(i, ei), b.substring(j, ej));
            } else if (da != db) {
                c = da ? -1 : 1;
            } else {
                c = a.substring(i, ei).compareTo(b.substring(j, ej));
            }
            if (c != 0) {
                return c;
            }
            i = ei;
            j = ej;
        }
        int c = Integer.compare(a.length() - i, b.length() - j);
        return c != 0 ? c : a.compareTo(b);
    }

    private static int run(String s, int from, boolean digits) {
        int k = from;
        while (k < s.length() && Character.isDigit(s.charAt(k)) == digits) {
            k++;
        }
        return k;
    }

    /** Digit runs by value: without leading zeros the longer is larger, else they compare as text. */
    private static int compareNumbers(String x, String y) {
        String a = x.replaceFirst("^0+(?=.)", "");
        String b = y.replaceFirst("^0+(?=.)", "");
        return a.length() != b.length() ? Integer.compare(a.length(), b.length()) : a.compareTo(b);
    }
}
