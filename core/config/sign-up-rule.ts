import * as v from 'valibot';
import { CEL_LIMITS, conditionProblem } from '../lib/cel-bounds.ts';

/*
 * The shape of a sign-up rule in the config model (`auth.signUpRules.<id>`; upstream
 * `SignUpRule`): the config model validates what is saved, so it owns the shape and the save-time
 * bound of the condition; the sign-up-rules domain (core/sign-up-rules/rules.ts) evaluates rules
 * and re-exports these.
 */

/** What a matching rule does (upstream `SignUpRuleAction`). */
export const SIGN_UP_RULE_ACTIONS = ['allow', 'reject', 'restrict', 'log'] as const;
export type SignUpRuleActionType = (typeof SIGN_UP_RULE_ACTIONS)[number];

const ruleShape = (condition: v.GenericSchema<string, string>) =>
  v.looseObject(
    {
      enabled: v.optional(v.boolean('must be a boolean')),
      displayName: v.optional(v.string('must be a string')),
      priority: v.optional(v.pipe(v.number('must be a number'), v.finite('must be a finite number'))),
      condition: v.optional(condition),
      action: v.looseObject(
        {
          type: v.picklist(SIGN_UP_RULE_ACTIONS, `must be one of ${SIGN_UP_RULE_ACTIONS.join(', ')}`),
          message: v.optional(v.string('must be a string')),
        },
        'must be an object with a type',
      ),
    },
    'must be an object',
  );

/**
 * A stored rule as it is read back (upstream `SignUpRule`): a rule runs only when `enabled` is
 * true and it has a `condition` (a CEL expression); `priority` orders rules, highest first, ties
 * by id; `action.message` is for admins only, never shown to users. No cost bound here: a rule
 * saved before the bound still runs, under the evaluation deadline.
 */
export const StoredSignUpRuleSchema = ruleShape(v.string('must be a string'));

/**
 * A rule as it is saved, `auth.signUpRules.<id>` in the config model: the stored shape, and a
 * condition within CEL_LIMITS (core/lib/cel-bounds.ts: length, parser limits, comprehension macros,
 * literal sizes, `matches` patterns RE2 can run, estimated cost). The refusal names the limit.
 */
export const SignUpRuleSchema = ruleShape(
  v.pipe(
    v.string('must be a string'),
    v.maxLength(CEL_LIMITS.maxLength, `must be at most ${CEL_LIMITS.maxLength} characters`),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const problem = conditionProblem(dataset.value);
      if (problem) addIssue({ message: `is not an accepted condition: ${problem}` });
    }),
  ),
);
export type SignUpRule = v.InferOutput<typeof StoredSignUpRuleSchema>;
