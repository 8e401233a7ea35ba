import { registerPrimaryEmailDemotion } from './primary-demotion.ts';

export { listContactChannels } from './list-contact-channels.ts';
export { createContactChannel } from './create-contact-channel.ts';
export { getContactChannel } from './get-contact-channel.ts';
export { updateContactChannel } from './update-contact-channel.ts';
export { deleteContactChannel } from './delete-contact-channel.ts';
export { sendChannelVerificationCode } from './send-channel-verification-code.ts';
export { sendVerificationCode } from './send-verification-code.ts';
export { verifyEmail } from './verify-email.ts';
export { checkContactChannelVerificationCode } from './check-contact-channel-verification-code.ts';
export { listUserChannels, findAuthEmailChannel, type ContactChannel } from './channels.ts';

export { sendSignUpVerificationEmail } from './sign-up-verification.ts';
registerPrimaryEmailDemotion();
