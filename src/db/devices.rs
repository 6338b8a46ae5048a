//! Devices (keyed by fingerprint) and regions (keyed by file and loop hash).

use rusqlite::{params, OptionalExtension};
use serde::{Deserialize, Serialize};

use super::schema::{check_json, check_one_of};
use super::sql::{SELECT_DEVICE, SELECT_REGION, UPSERT_DEVICE, UPSERT_REGION};
use super::{Db, Result, BACKENDS};

/// One device (`device` table). Identified by `fingerprint`; the other fields are refreshed on
/// every [`Db::upsert_device`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeviceRow {
    /// `opencl` or `cuda`.
    pub backend: String,
    /// OpenCL platform name; `CUDA` for CUDA devices.
    pub platform: String,
    pub name: String,
    pub vendor: String,
    pub driver_version: String,
    /// `CL_DEVICE_VERSION`, or the CUDA compute capability (`sm_90`).
    pub device_version: String,
    /// Compute units (OpenCL) / streaming multiprocessors (CUDA).
    pub compute_units: u32,
    /// Maximum work-items per work-group (threads per block).
    pub max_work_group_size: u64,
    /// Local memory per work-group (shared memory per block), bytes.
    pub local_mem_bytes: u64,
    /// Global memory, bytes.
    pub global_mem_bytes: u64,
    /// Maximum clock frequency, MHz.
    pub max_clock_mhz: u32,
    /// Stable identity of the device (e.g. a hash of backend, platform, name, driver): the key.
    pub fingerprint: String,
    /// Every queried device property, as a JSON object.
    pub properties_json: String,
}

/// One annotated loop (`region` table), identified by `(file, loop_hash)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RegionRow {
    /// Source file as given on the command line.
    pub file: String,
    /// 1-based line of the annotation.
    pub line: u32,
    /// Enclosing C function.
    pub function: String,
    /// Hex hash of the loop and its transform text.
    pub loop_hash: String,
    /// The annotation's transform (spec) text.
    pub transform_text: String,
}

impl Db {
    /// Inserts the device, or refreshes every column of the row with the same `fingerprint`.
    /// Returns `device.id`.
    pub fn upsert_device(&self, d: &DeviceRow) -> Result<i64> {
        check_one_of("device.backend", &d.backend, &BACKENDS)?;
        check_json("device.properties_json", &d.properties_json)?;
        let id = self.conn.query_row(
            UPSERT_DEVICE,
            params![
                d.backend,
                d.platform,
                d.name,
                d.vendor,
                d.driver_version,
                d.device_version,
                d.compute_units,
                d.max_work_group_size,
                d.local_mem_bytes,
                d.global_mem_bytes,
                d.max_clock_mhz,
                d.fingerprint,
                d.properties_json
            ],
            |r| r.get(0),
        )?;
        Ok(id)
    }

    /// The device with this id, if any.
    pub fn device(&self, id: i64) -> Result<Option<DeviceRow>> {
        let row = self
            .conn
            .query_row(SELECT_DEVICE, [id], |r| {
                Ok(DeviceRow {
                    backend: r.get(0)?,
                    platform: r.get(1)?,
                    name: r.get(2)?,
                    vendor: r.get(3)?,
                    driver_version: r.get(4)?,
                    device_version: r.get(5)?,
                    compute_units: r.get(6)?,
                    max_work_group_size: r.get(7)?,
                    local_mem_bytes: r.get(8)?,
                    global_mem_bytes: r.get(9)?,
                    max_clock_mhz: r.get(10)?,
                    fingerprint: r.get(11)?,
                    properties_json: r.get(12)?,
                })
            })
            .optional()?;
        Ok(row)
    }

    /// Inserts the region, or refreshes `line`, `function` and `transform_text` of the row with
    /// the same `(file, loop_hash)`. Returns `region.id`.
    pub fn upsert_region(&self, r: &RegionRow) -> Result<i64> {
        let id = self.conn.query_row(
            UPSERT_REGION,
            params![r.file, r.line, r.function, r.loop_hash, r.transform_text],
            |row| row.get(0),
        )?;
        Ok(id)
    }

    /// The region with this id, if any.
    pub fn region(&self, id: i64) -> Result<Option<RegionRow>> {
        let row = self
            .conn
            .query_row(SELECT_REGION, [id], |r| {
                Ok(RegionRow {
                    file: r.get(0)?,
                    line: r.get(1)?,
                    function: r.get(2)?,
                    loop_hash: r.get(3)?,
                    transform_text: r.get(4)?,
                })
            })
            .optional()?;
        Ok(row)
    }
}
