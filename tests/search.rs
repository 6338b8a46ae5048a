//! Search quality in replay, on synthetic recorded spaces shaped like GPU tuning spaces: work-group
//! counts and sizes in powers of two, an unroll factor 1..8 and two booleans (1920
//! configurations), times mostly smooth in the logarithm of the indices, with cliffs (register
//! spills, too few work-items), a second basin of attraction, interactions, 4% deterministic
//! ruggedness, a constraint corner and a device-limit corner; a CLBlast-like GEMM space (18432
//! configurations); and the recorded H100 and H200 spaces of `bench/data`. Each strategy runs as `orcl
//! replay` runs it (`Recorded::summarize`) at a 5% budget over 20 seeds.
//!
//! `cargo test --release --test search -- --ignored --nocapture bench` prints a table for several
//! budgets; `ORCL_BENCH_OPTS='annealing_cooling_factor=0.95,genetic_population=8'` overrides
//! options there (for tuning the defaults).

use orcl::db::EvaluationRow;
use orcl::diag::Span;
use orcl::frontend::expr::Value;
use orcl::frontend::spec::Located;
use orcl::replay::{Budget, Recorded, Summary};
use orcl::search::algorithm_names;

/// SplitMix64: a deterministic hash of a configuration's indices.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The recorded rows of synthetic landscape `variant` (0, 1, 2, ...).
fn landscape(variant: u64) -> Vec<EvaluationRow> {
    let v = variant;
    // Where the landscape's features lie, by variant.
    let saturation: f64 = [14.0, 13.0, 15.0, 12.5][(v % 4) as usize]; // log2 of the threads that saturate
    let best_unroll_small: f64 = [4.0, 3.0, 5.0, 6.0][(v % 4) as usize];
    let cb_good = v % 2 == 0;
    let mut rows = Vec::new();
    for wg in 0..10u32 {
        for wi in 0..6u32 {
            for ui in 1..=8u32 {
                for cb in [false, true] {
                    for sh in [false, true] {
                        let wg_v = 1i64 << wg;
                        let wi_v = 32i64 << wi;
                        let key =
                            format!(r#"{{"WG":{wg_v},"WI":{wi_v},"UI":{ui},"CB":{cb},"SH":{sh}}}"#);
                        let mut row = EvaluationRow {
                            config_key: key.clone(),
                            config_json: key,
                            ..Default::default()
                        };
                        if wi_v * i64::from(ui) > 4096 {
                            row.status = "constraint".into();
                            row.message = Some("breaks constraint `regs`".into());
                            rows.push(row);
                            continue;
                        }
                        if cb && wi_v >= 1024 && wg >= 8 {
                            row.status = "device_limit".into();
                            row.message = Some("local memory".into());
                            rows.push(row);
                            continue;
                        }
                        // Threads, in log2.
                        let t = f64::from(wg) + f64::from(wi) + 5.0;
                        // Bandwidth-bound time: falls with parallelism until saturation, then a
                        // slow rise from scheduling overhead.
                        let mut ms = 2f64.powf((saturation - t).max(0.0)) * 0.05;
                        ms *= 1.0 + 0.02 * (t - saturation).max(0.0);
                        // Very small work-groups are poor.
                        if wi == 0 {
                            ms *= 1.25;
                        }
                        // Unrolling: a bowl around the best factor (smaller for large groups),
                        // with a spill cliff.
                        let best_u = if wi >= 3 {
                            (best_unroll_small - 2.0).max(1.0)
                        } else {
                            best_unroll_small
                        };
                        ms *= 1.0 + 0.012 * (f64::from(ui) - best_u).powi(2);
                        if ui >= 7 && wi >= 2 {
                            ms *= 1.35;
                        }
                        // Cache blocking helps large groups (or small ones, by variant).
                        let large = wi >= 2;
                        if cb {
                            ms *= if large == cb_good { 0.88 } else { 1.12 };
                        }
                        // A second basin of attraction, far from the first: few work-groups,
                        // heavily unrolled. Its bottom is a little worse than the first's, or
                        // (variant 1) a little better.
                        let d2 = (f64::from(wg) - 1.0).powi(2)
                            + (f64::from(wi) - 1.0).powi(2)
                            + 0.5 * (f64::from(ui) - 7.0).powi(2)
                            + if cb == cb_good { 0.0 } else { 1.0 };
                        let bottom = 0.05 * 0.88 * [1.04, 0.97, 1.02, 1.06][(v % 4) as usize];
                        ms = ms.min(bottom * (1.0 + 0.08 * d2));
                        // An interaction: SH helps on even work-group exponents only.
                        if sh {
                            ms *= if wg % 2 == 0 { 0.96 } else { 1.05 };
                        }
                        // Ruggedness: 4% deterministic noise.
                        let h = mix((v << 40)
                            ^ (u64::from(wg) << 24)
                            ^ (u64::from(wi) << 16)
                            ^ (u64::from(ui) << 8)
                            ^ (u64::from(cb) << 1)
                            ^ u64::from(sh));
                        ms *= 1.0 + 0.04 * (h >> 11) as f64 / (1u64 << 53) as f64;
                        row.status = "ok".into();
                        row.samples_ms = vec![ms];
                        row.median_ms = Some(ms);
                        rows.push(row);
                    }
                }
            }
        }
    }
    rows
}

/// The recorded rows of a GEMM-like space (CLBlast's Xgemm parameters, 18432 configurations):
/// tile sizes, work-group shape and vector widths with divisibility constraints, a
/// register-pressure device limit, and a multimodal performance model.
fn gemm_landscape(variant: u64) -> Vec<EvaluationRow> {
    let v = variant;
    let best_wpt = [16.0f64, 32.0, 8.0, 16.0][(v % 4) as usize];
    let best_threads = [128.0f64, 256.0, 64.0, 256.0][(v % 4) as usize];
    let best_vw = [4.0f64, 2.0, 4.0, 8.0][(v % 4) as usize];
    let mut rows = Vec::new();
    for mwg in [16i64, 32, 64, 128] {
        for nwg in [16i64, 32, 64, 128] {
            for kwg in [16i64, 32] {
                for mdimc in [8i64, 16, 32] {
                    for ndimc in [8i64, 16, 32] {
                        for vwm in [1i64, 2, 4, 8] {
                            for vwn in [1i64, 2, 4, 8] {
                                for sa in [false, true] {
                                    for sb in [false, true] {
                                        let key = format!(
                                            r#"{{"MWG":{mwg},"NWG":{nwg},"KWG":{kwg},"MDIMC":{mdimc},"NDIMC":{ndimc},"VWM":{vwm},"VWN":{vwn},"SA":{sa},"SB":{sb}}}"#
                                        );
                                        let mut row = EvaluationRow {
                                            config_key: key.clone(),
                                            config_json: key,
                                            ..Default::default()
                                        };
                                        if mwg % (mdimc * vwm) != 0 || nwg % (ndimc * vwn) != 0 {
                                            row.status = "constraint".into();
                                            row.message =
                                                Some("breaks constraint `divides`".into());
                                            rows.push(row);
                                            continue;
                                        }
                                        let wpt = ((mwg / mdimc) * (nwg / ndimc)) as f64;
                                        if wpt > 64.0 {
                                            row.status = "device_limit".into();
                                            row.message = Some("registers".into());
                                            rows.push(row);
                                            continue;
                                        }
                                        let threads = (mdimc * ndimc) as f64;
                                        let l2 = |x: f64| x.log2();
                                        let mut eff = 1.0;
                                        eff /= 1.0 + 0.10 * (l2(wpt) - l2(best_wpt)).powi(2);
                                        eff /=
                                            1.0 + 0.08 * (l2(threads) - l2(best_threads)).powi(2);
                                        eff /= 1.0 + 0.05 * (l2(vwm as f64) - l2(best_vw)).powi(2);
                                        eff /= 1.0
                                            + 0.03
                                                * (l2(vwn as f64) - l2(best_vw / 2.0).max(0.0))
                                                    .powi(2);
                                        // Local-memory caching pays off for large tiles only.
                                        let big = mwg * nwg >= 4096;
                                        if sa {
                                            eff *= if big { 1.10 } else { 0.93 };
                                        }
                                        if sb {
                                            eff *= if big == (kwg == 32) { 1.06 } else { 0.95 };
                                        }
                                        // Few large tiles leave units idle.
                                        if mwg * nwg >= 16384 {
                                            eff *= 0.9;
                                        }
                                        let h = mix((v << 48)
                                            ^ ((mwg as u64) << 36)
                                            ^ ((nwg as u64) << 28)
                                            ^ ((kwg as u64) << 22)
                                            ^ ((mdimc as u64) << 16)
                                            ^ ((ndimc as u64) << 10)
                                            ^ ((vwm as u64) << 6)
                                            ^ ((vwn as u64) << 2)
                                            ^ (u64::from(sa) << 1)
                                            ^ u64::from(sb));
                                        eff *= 1.0 - 0.05 * (h >> 11) as f64 / (1u64 << 53) as f64;
                                        let ms = 1.0 / eff;
                                        row.status = "ok".into();
                                        row.samples_ms = vec![ms];
                                        row.median_ms = Some(ms);
                                        rows.push(row);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    rows
}

/// Variants 0..99: [`landscape`]; 100..199: [`gemm_landscape`]; 201, 202, 203: the experiments
/// of `bench/data/h100-nvidia-opencl-vecaxpy.db`; 301, 302: those of
/// `bench/data/h200-nvidia-opencl-spaces.db`.
fn recorded(variant: u64) -> Recorded {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/data");
    if variant > 300 {
        let db = data.join("h200-nvidia-opencl-spaces.db");
        return Recorded::load(&db, (variant - 300) as i64).expect("the recorded H200 space");
    }
    if variant > 200 {
        let db = data.join("h100-nvidia-opencl-vecaxpy.db");
        return Recorded::load(&db, (variant - 200) as i64).expect("the recorded H100 space");
    }
    let rows = if variant >= 100 {
        gemm_landscape(variant - 100)
    } else {
        landscape(variant)
    };
    Recorded::from_rows(1, "Exhaustive", &rows).expect("a complete space")
}

fn summary(
    r: &Recorded,
    algorithm: &str,
    budget: &str,
    opts: &[(String, Located<Value>)],
) -> Summary {
    let b = Budget::parse(budget).unwrap().evaluations(r.space_size);
    r.summarize_with(algorithm, opts, b, 20).unwrap()
}

#[test]
fn landscape_shape() {
    for variant in 0..4 {
        let r = recorded(variant);
        assert_eq!(r.space.size(), 10 * 6 * 8 * 2 * 2);
        assert!(r.constraint > 0 && r.device_limit > 0);
        assert!(r.space_size > 1500, "{}", r.space_size);
        let ms: Vec<f64> = landscape(variant)
            .iter()
            .filter_map(|r| r.median_ms)
            .collect();
        let within = |f: f64| ms.iter().filter(|&&m| m <= r.best_ms / f).count();
        eprintln!(
            "variant {variant}: {} measured, {} constraint, {} device_limit; within 1%: {}, 3%: {}, 5%: {}, 10%: {}; best {}",
            r.space_size,
            r.constraint,
            r.device_limit,
            within(0.99),
            within(0.97),
            within(0.95),
            within(0.90),
            r.best.display()
        );
    }
}

/// The issue's bar: at a 5% budget over 20 seeds, a median of at least 0.97 of the optimum for
/// Annealing and Genetic, 0.95 for NelderMead, and at least Random's median, on the synthetic
/// GPU-like spaces, two GEMM-like spaces and the recorded H100 and H200 spaces.
#[test]
fn strategies_reach_the_optimum_at_five_percent() {
    let mut failures = Vec::new();
    for variant in [0, 1, 2, 3, 100, 101, 201, 202, 203, 301, 302] {
        let r = recorded(variant);
        let random = summary(&r, "Random", "5%", &[]);
        let rm = random.fraction_of_optimum.median;
        for (algorithm, need) in [("Annealing", 0.97), ("Genetic", 0.97), ("NelderMead", 0.95)] {
            let s = summary(&r, algorithm, "5%", &[]);
            let m = s.fraction_of_optimum.median;
            eprintln!(
                "variant {variant}: {algorithm} median {m:.3} p10 {:.3} (random {rm:.3})",
                s.fraction_of_optimum.p10
            );
            if m < need || m < rm {
                failures.push(format!(
                    "variant {variant}: {algorithm} median {m:.3} (needs {need} and random's {rm:.3})"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Options from `ORCL_BENCH_OPTS` (`name=value,...`).
fn bench_options() -> Vec<(String, Located<Value>)> {
    let Ok(text) = std::env::var("ORCL_BENCH_OPTS") else {
        return Vec::new();
    };
    text.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').expect("name=value");
            let value = match v.trim().parse::<i64>() {
                Ok(i) => Value::Int(i),
                Err(_) => Value::Float(v.trim().parse().expect("a number")),
            };
            (
                k.trim().to_string(),
                Located {
                    value,
                    span: Span::default(),
                },
            )
        })
        .collect()
}

fn env_list(name: &str, default: &str) -> Vec<String> {
    std::env::var(name)
        .unwrap_or_else(|_| default.to_string())
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

#[test]
#[ignore]
fn bench() {
    let opts = bench_options();
    let variants: Vec<u64> = env_list("ORCL_BENCH_VARIANTS", "0,1,2,3")
        .iter()
        .map(|x| x.parse().unwrap())
        .collect();
    let seeds: u64 = std::env::var("ORCL_BENCH_SEEDS").map_or(20, |s| s.parse().unwrap());
    let algorithms = env_list("ORCL_BENCH_ALGS", &algorithm_names()[1..].join(","));
    let spaces: Vec<Recorded> = variants.iter().map(|&v| recorded(v)).collect();
    for budget in env_list("ORCL_BENCH_BUDGETS", "1%,2%,5%,10%") {
        println!("budget {budget}");
        for algorithm in &algorithms {
            let mut line = format!("  {algorithm:<11}");
            let mut medians = Vec::new();
            for (r, v) in spaces.iter().zip(&variants) {
                let b = Budget::parse(&budget).unwrap().evaluations(r.space_size);
                let own: Vec<_> = opts
                    .iter()
                    .filter(|(n, _)| {
                        orcl::search::options::find(algorithm).is_some_and(|a| {
                            a.aliases.iter().any(|p| n.starts_with(&format!("{p}_")))
                        })
                    })
                    .cloned()
                    .collect();
                let s = r.summarize_with(algorithm, &own, b, seeds).unwrap();
                let f = &s.fraction_of_optimum;
                medians.push(f.median);
                line += &format!(
                    " | v{v} {:.3} {:.3} {:.3} {:>3.0}%",
                    f.median,
                    f.p10,
                    f.mean,
                    s.hit_optimum * 100.0
                );
            }
            let min = medians.iter().cloned().fold(f64::INFINITY, f64::min);
            let mean = medians.iter().sum::<f64>() / medians.len() as f64;
            println!("{line} || min {min:.3} mean {mean:.3}");
        }
    }
}
