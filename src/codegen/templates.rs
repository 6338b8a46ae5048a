//! orcl's tera templates (host code, timing skeletons), embedded at build time, and their
//! rendering.

use std::sync::OnceLock;

/// The templates, kept as files in the repository and embedded at build time.
const TEMPLATES: &[(&str, &str)] = &[
    (
        "opencl_host.c.tera",
        include_str!("templates/opencl_host.c.tera"),
    ),
    (
        "opencl_steps_host.c.tera",
        include_str!("templates/opencl_steps_host.c.tera"),
    ),
    (
        "cuda_steps_host.cu.tera",
        include_str!("templates/cuda_steps_host.cu.tera"),
    ),
    (
        "cuda_host.cu.tera",
        include_str!("templates/cuda_host.cu.tera"),
    ),
    (
        "opencl_skeleton.c.tera",
        include_str!("../../skeletons/opencl_skeleton.c.tera"),
    ),
    (
        "cuda_skeleton.c.tera",
        include_str!("../../skeletons/cuda_skeleton.c.tera"),
    ),
    (
        "skeleton_inputs.c.tera",
        include_str!("../../skeletons/skeleton_inputs.c.tera"),
    ),
    (
        "opencl_sm90a.c.tera",
        include_str!("../../skeletons/opencl_sm90a.c.tera"),
    ),
    (
        "skeleton_reply.c.tera",
        include_str!("../../skeletons/skeleton_reply.c.tera"),
    ),
    (
        "skeleton_validate.c.tera",
        include_str!("../../skeletons/skeleton_validate.c.tera"),
    ),
    (
        "skeleton_steps_opencl.c.tera",
        include_str!("../../skeletons/skeleton_steps_opencl.c.tera"),
    ),
    (
        "skeleton_steps_cuda.c.tera",
        include_str!("../../skeletons/skeleton_steps_cuda.c.tera"),
    ),
];

fn templates() -> &'static tera::Tera {
    static T: OnceLock<tera::Tera> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = tera::Tera::default();
        t.autoescape_on(vec![]);
        t.add_raw_templates(TEMPLATES.iter().copied())
            .expect("templates shipped with orcl parse");
        t
    })
}

/// Render one of orcl's templates. The templates are part of orcl, so a failure is a bug in orcl.
pub fn render(name: &str, ctx: &tera::Context) -> String {
    match templates().render(name, ctx) {
        Ok(s) => s,
        Err(e) => {
            let mut msg = e.to_string();
            let mut src = std::error::Error::source(&e);
            while let Some(s) = src {
                msg.push_str(&format!(": {s}"));
                src = s.source();
            }
            panic!("internal error: template {name} failed to render: {msg}")
        }
    }
}
