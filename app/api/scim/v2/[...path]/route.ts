import { handleScimRequest } from "@/server/http/scim";

export const dynamic = "force-dynamic";

export {
  handleScimRequest as GET,
  handleScimRequest as POST,
  handleScimRequest as PUT,
  handleScimRequest as PATCH,
  handleScimRequest as DELETE,
};
