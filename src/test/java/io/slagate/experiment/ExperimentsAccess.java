package io.slagate.experiment;

import io.slagate.load.SecondSample;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Lets end-to-end tests read a run's samples.csv with the experiment runner's own reader. */
public final class ExperimentsAccess {
    private ExperimentsAccess() {
    }

    public static List<SecondSample> read(Path csv) throws IOException {
        return Experiments.readSamples(csv);
    }
}
