import { check, emailRule } from '@partsyard/common';
import * as yup from 'yup';
import { badInput } from '../errors';

const emailSchema = yup.object({ email: emailRule() });

/** A well-formed email, lower-cased as emails are kept; BAD_USER_INPUT with the spec's messages otherwise. */
export function validEmail(email: unknown): string {
  const result = check(emailSchema, { email });
  if (!result.ok) throw badInput(result.errors);
  return result.value.email.toLowerCase();
}
