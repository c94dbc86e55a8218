import { z } from 'zod';

// Operator settings: every business number an operator may change without editing code. Adding one is one line
// here (its range and default); the admin API validates against it and the server reads it through
// server/platform/settings.ts.

const MIB = 1024 * 1024;

export const settingsSchema = z.object({
  /** Bytes of uploads one person may keep. */
  'uploads.quotaBytes': z.number().int().min(MIB).max(1024 * 1024 * MIB).default(1024 * MIB),
  /** Uploads one person may make in an hour (one address: ten times as many). */
  'uploads.perHour': z.number().int().min(1).max(10_000).default(60),
});

export type Settings = z.output<typeof settingsSchema>;
export type SettingKey = keyof Settings;
export const SETTING_KEYS = Object.keys(settingsSchema.shape) as SettingKey[];

/** A change from the admin form: any subset of the settings, nothing unknown. */
export const settingsPatchSchema = settingsSchema.partial().strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;
