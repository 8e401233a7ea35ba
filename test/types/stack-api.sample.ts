/**
 * Code written against Stack Auth's documented client API (@stackframe/js 2.8.108's .d.ts:
 * lib/stack-app/apps/interfaces/client-app.d.ts, users/index.d.ts, common.d.ts). The module
 * `stack-under-test` is @stackframe/js in tsconfig.stack.json and Gatehouse's SDK under Stack's
 * names in tsconfig.gatehouse.json (gatehouse-as-stack.ts): the same code compiles against both
 * (test/types/stack-shaped-types.test.ts). Never run: it is a type-level test.
 */
import type { StackClientApp } from 'stack-under-test';

export async function signedInPage(app: StackClientApp) {
  // or: 'redirect' | 'throw' | 'anonymous' → the signed-in user, never null.
  const user = await app.getUser({ or: 'redirect' });
  const name: string | null = user.displayName;
  const thrown = await app.getUser({ or: 'throw' });
  const email: string | null = thrown.primaryEmail;
  const maybe = await app.getUser();
  const id: string | undefined = maybe?.id;

  // Teams on the user object.
  const teams = await user.listTeams();
  const team = await user.getTeam(teams[0]!.id);
  const created = await user.createTeam({ displayName: 'Team' });
  await user.setSelectedTeam(created);
  await user.setSelectedTeam(null);
  const selected: string | undefined = user.selectedTeam?.displayName;
  if (team) await user.leaveTeam(team);

  // Permissions: in a team, and project permissions.
  const canEdit: boolean = await user.hasPermission(created, 'team_admin');
  const projectWide: boolean = await user.hasPermission('read_reports');
  const permission = await user.getPermission(created, 'team_member');
  const permissionId: string | undefined = permission?.id;
  const inTeam = await user.listPermissions(created, { recursive: true });
  const inProject = await user.listPermissions();
  const permissionIds: string[] = [...inTeam, ...inProject].map((p) => p.id);

  // API keys.
  const keys = await user.listApiKeys();
  const key = await user.createApiKey({ description: 'CLI', expiresAt: new Date(Date.now() + 86_400_000), isPublic: false });
  const keyId: string = key.id;

  // Contact channels.
  const channels = await user.listContactChannels();
  const channel = await user.createContactChannel({ type: 'email', value: 'work@example.com', usedForAuth: false, isPrimary: false });
  const channelValue: string = channel.value;

  // Sign out from the user object, or from the app.
  await user.signOut();
  await user.signOut({ redirectUrl: '/goodbye' });
  await app.signOut({ redirectUrl: new URL('https://example.com/') });

  return { name, email, id, selected, canEdit, projectWide, permissionId, permissionIds, keys, keyId, channels, channelValue };
}
