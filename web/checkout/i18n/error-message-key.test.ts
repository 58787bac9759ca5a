import { describe, expect, it } from 'vitest';
import { errorMessageKey } from './index';

describe('errorMessageKey', () => {
  it('tells the shopper not to pay again when the database failed, since the processor may have charged', () => {
    expect(errorMessageKey('database_unavailable')).toBe('error.processor_timeout');
    expect(errorMessageKey('processor_timeout')).toBe('error.processor_timeout');
    expect(errorMessageKey('internal_error')).toBe('error.generic');
  });
});
