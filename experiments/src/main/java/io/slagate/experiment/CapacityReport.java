package io.slagate.experiment;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Experiment capacity's results file: the set-up, each run's steps with the signal's series, the line. */
final class CapacityReport {
    private CapacityReport() {
    }

    static String of(String command, List<CapacityExperiment.Run> runs, List<CapacityExperiment.Step> sweep, Duration settle,
                     Duration measure, String line) {
        StringBuilder md = ResultsFile.header("Experiment capacity — the capacity signal acted on as an autoscaler acts on it", command);
        md.append(String.format(Locale.ROOT, "The paper's classes (premium τ = 2, basic τ = 3 paper-seconds; 1 paper-second = 20 ms), "
                + "closed-loop clients with think time 1 paper-second, %d per class (then %d), on servers of N_s = 10 (a sleep-bound "
                + "service: the servers do not share a CPU), the controller with the `auto` model, a 100 ms cycle, "
                + "a 600 ms statistics window and the signal's stabilization as shipped (three windows). Each step is %d s to settle and %d s measured. At each step's end the run reads the "
                + "signal (`slagate_capacity_deficit_servers`) and adds that many servers by a live reload of the gateway's "
                + "configuration; the first reading is checked by trying one server fewer first (it is *right* when that misses a "
                + "target and its own count meets both). Then the load falls to %d clients per class: the signal should offer "
                + "servers to spare, which the run takes away before it measures the targets again. t_P and t_B are the clients' "
                + "mean response times over the measured span, in paper-seconds; the series is every reading of the signal in "
                + "that span (a flap is a change of its sign there). Before the first run, the same system ran the high load "
                + "unmeasured on two servers (JIT warm-up: the gateway, manager and clients share one JVM). Then the "
                + "operator's sweep: the high load on 1 to 5 servers, fixed, one step each; the minimal count is the fewest "
                + "that met both targets, and a run is *exact* when the signal had it scale to that count under the high load, "
                + "an *over-ask* or *under-ask* otherwise (runs before 2026-11-28, under History, scored only the first "
                + "reading's check, and a systematic one-server over-ask went unscored).%n%n", 20, 5, settle.toSeconds(),
                measure.toSeconds(), 5));
        md.append("```\n").append(line).append("\n```\n\n");
        md.append("| servers (fixed) | t_P | t_B | targets | signal at the end |\n|---:|---:|---:|---|---:|\n");
        for (CapacityExperiment.Step s : sweep) {
            md.append(String.format(Locale.ROOT, "| %d | %.2f | %.2f | %s | %s |%n", s.servers(), s.premiumSeconds(), s.basicSeconds(),
                    s.met() ? "met" : "missed", CapacityExperiment.fmt(s.signal())));
        }
        md.append('\n');
        md.append("| run | first reading | right | scaled to | targets met after scaling | servers to spare under the low load "
                + "| targets met after taking them | flaps |\n").append("|---:|---:|---|---:|---|---:|---|---:|\n");
        for (CapacityExperiment.Run r : runs) {
            md.append(String.format(Locale.ROOT, "| %d | %s | %s | %d | %s | %s | %s | %d |%n", r.number(), CapacityExperiment.fmt(r.first()),
                    yes(r.right()), r.scaledTo(), yes(r.metAfterScaling()), CapacityExperiment.fmt(r.spare()), yes(r.metAfterSparing()),
                    r.flaps()));
        }
        for (CapacityExperiment.Run r : runs) {
            md.append("\n## Run ").append(r.number()).append("\n\n")
                    .append("| step | clients per class | servers | why | t_P | t_B | targets | signal over the measured span |\n")
                    .append("|---:|---:|---:|---|---:|---:|---|---|\n");
            for (int i = 0; i < r.steps().size(); i++) {
                CapacityExperiment.Step s = r.steps().get(i);
                String series = s.readings().stream().map(CapacityExperiment::fmt).collect(Collectors.joining(" "));
                md.append(String.format(Locale.ROOT, "| %d | %d | %d | %s | %.2f | %.2f | %s | %s |%n", i + 1, s.clients(), s.servers(),
                        s.why(), s.premiumSeconds(), s.basicSeconds(), s.met() ? "met" : "missed", series));
            }
        }
        return md.toString();
    }

    private static String yes(boolean b) {
        return b ? "yes" : "no";
    }
}
