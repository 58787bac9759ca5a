import { z } from 'zod';
import { listQuery } from './schemas';

const flagValue = z.union([z.boolean(), z.string().max(500), z.number().finite()]);
const description = z.string().max(500).nullable().optional();

export const flagKeyParams = z.strictObject({ key: z.string().regex(/^[A-Za-z0-9_]{1,64}$/) });

/** Body of `POST /v1/flags`. */
export const createFlagBody = z.strictObject({ key: z.string().max(64), value: flagValue, description });

/** Body of `POST /v1/flags/:key`. */
export const updateFlagBody = z.strictObject({ value: flagValue.optional(), description });

const variants = z
  .array(z.strictObject({ key: z.string().max(64), weight: z.number().int().min(0).max(10_000) }))
  .min(1)
  .max(10);

const sampleSizing = {
  control: z.string().max(64).optional(),
  planned_sample_size: z.number().int().min(1).max(10_000_000).optional(),
  baseline_conversion_rate: z.number().gt(0).lt(1).optional(),
  minimum_detectable_effect: z
    .number()
    .gt(-1)
    .lt(1)
    .refine((v) => v !== 0, 'must not be 0')
    .optional(),
};

/** Body of `POST /v1/experiments`. */
export const createExperimentBody = z.strictObject({
  key: z.string().max(64),
  variants,
  description,
  status: z.enum(['draft', 'running']).optional(),
  ...sampleSizing,
});

/** Body of `POST /v1/experiments/:id`. */
export const updateExperimentBody = z.strictObject({
  variants: variants.optional(),
  description,
  status: z.enum(['draft', 'running', 'stopped']).optional(),
  ...sampleSizing,
});

export const listExperimentsQuery = z.strictObject({ ...listQuery });

/** Body of the checkout page's exposure report. */
export const exposureBody = z.strictObject({ key: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/) });
