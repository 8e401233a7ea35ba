import { defineOperation, reply } from '../operations/define.ts';
import { TextOutput } from '../operations/output.ts';

/**
 * Where the SDK reports a feature it does not support yet
 * (`{ ...options, name }`) and throws the answer's text. As upstream, any body is accepted and the
 * answer is plain text "This feature is not yet supported. Please reach out to Stack support
 * for more information." (upstream echoes a `feature_name` field, which the SDK never sends;
 * the body is not read here so any well-formed body passes, as upstream's `yupMixed` does).
 * @see upstream `check-feature-support/route.tsx`
 */
export const checkFeatureSupport = defineOperation({
  id: 'meta.checkFeatureSupport',
  method: 'POST',
  path: '/check-feature-support',
  summary: "Answer an SDK's report of an unsupported feature.",
  access: 'public',
  input: {},
  ignoresBody: true,
  errors: [],
  output: TextOutput,
  async run() {
    return reply.text('This feature is not yet supported. Please reach out to Stack support for more information.');
  },
});
