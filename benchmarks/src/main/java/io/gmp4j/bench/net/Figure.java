package io.gmp4j.bench.net;

import java.util.List;

/**
 * One figure a load run measured: a benchmark name ({@code echo-c16-p99}), its unit and one
 * sample per measured window (the reported value is their median).
 */
public record Figure(String bench, String unit, List<Double> samples) {
    public Figure {
        samples = List.copyOf(samples);
        if (samples.isEmpty()) {
            throw new IllegalArgumentException(bench + ": a figure needs at least one sample");
        }
    }
}
