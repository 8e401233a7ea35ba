/** An admin project object as `GET /internal/projects` returns it (upstream apps/backend/prisma/seed.ts). */
export interface AdminProject {
  id: string;
  display_name: string;
  description: string | null;
  created_at_millis: number;
  is_production_mode: boolean;
  owner_team_id: string | null;
  config: Record<string, any>;
}
